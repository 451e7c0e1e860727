//! `chesstool variant list`: the built-in variants and what each one is.

use super::Outcome;
use anyhow::Result;
use chesstool::variants::variant::builtin;
use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};
use serde::Serialize;
use std::io::Write;

#[derive(clap::Args, Debug)]
pub struct VariantCmdArgs {
    #[command(subcommand)]
    pub command: VariantCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum VariantCommand {
    /// List the built-in variants (`--variant NAME` without --variant-path).
    List {
        /// Print one JSON document instead of text (see `chesstool docs json`).
        ///
        /// One object: {"status": "ok", "variants": [{"name", "board", "description"}]}.
        #[arg(long)]
        json: bool,
    },
}

impl VariantCmdArgs {
    /// Whether the answer is JSON.
    pub fn json(&self) -> bool {
        matches!(self.command, VariantCommand::List { json: true })
    }
}

#[derive(Serialize)]
struct Listed {
    name: String,
    board: String,
    description: String,
}

#[derive(Serialize)]
struct ListJson {
    status: &'static str,
    variants: Vec<Listed>,
}

/// Runs `variant list`.
pub fn run(args: VariantCmdArgs) -> Result<Outcome> {
    let VariantCommand::List { json } = args.command;
    let mut listed = Vec::new();
    for (name, description) in builtin::list() {
        let board = builtin::load(&name)
            .map(|v| format!("{}x{}", v.geometry.width, v.geometry.height))
            .unwrap_or_else(|_| "?".into());
        listed.push(Listed { name, board, description });
    }
    if json {
        super::common::print_json(&ListJson { status: "ok", variants: listed })?;
        return Ok(Outcome::Success);
    }
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED).set_content_arrangement(ContentArrangement::Dynamic).set_header([
        "Variant",
        "Board",
        "What it is",
    ]);
    // The width: $COLUMNS, else the terminal's, else (a pipe, a file) 100.
    match std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse::<u16>().ok()).filter(|&w| w > 0) {
        Some(width) => {
            table.set_width(width);
        }
        None if table.width().is_none() => {
            table.set_width(100);
        }
        None => {}
    }
    for l in &listed {
        table.add_row([l.name.as_str(), l.board.as_str(), l.description.as_str()]);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "{table}")?;
    Ok(Outcome::Success)
}
