//! The runners of a distributed perft, for real: GNU parallel
//! (`scripts/perft_parallel.sh`, the one-liner of docs/distributed.md) on this machine with
//! two jobs, a failed unit and `--resume-failed`; and a Slurm array job
//! (`examples/slurm_perft_units.sh`) on a single-node Slurm started by
//! `scripts/slurm_local.sh`. Totals are the published perft(5) of the start
//! position. Where a runner cannot run here, the test says why on stderr
//! (uncaptured) and skips; in CI (`CI` set) a runner that is not installed is
//! a failure, since `.ci/run` installs it.

use assert_cmd::Command;
use std::io::Write;
use std::path::{Path, PathBuf};

mod common;
use common::TempDir;
use std::process::Stdio;
use std::time::{Duration, Instant};

const PERFT5: u64 = 4_865_609;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("chesstool")
}

/// Says on the real stderr (the test harness captures only `eprintln!`) why
/// a test does not run here. Unless the tool should be there (CI).
fn skip(test: &str, reason: &str, ci_must_have_it: bool) {
    if ci_must_have_it && std::env::var_os("CI").is_some() {
        panic!("{test}: {reason}, but CI installs it (.ci/run)");
    }
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason}");
}

fn have(tool: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", &format!("command -v {tool} || test -x /usr/sbin/{tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Splits startpos at ply 3 for depth 5 into 6 units of up to 1,000 records.
fn split(dir: &Path) -> PathBuf {
    let out = dir.join("split");
    Command::new(bin())
        .args(["perft", "split", "--split-ply", "3", "--depth", "5", "--unit-size", "1000", "-q", "-o"])
        .arg(&out)
        .assert()
        .success();
    out
}

fn merged_nodes(split: &Path) -> serde_json::Value {
    let mut results: Vec<PathBuf> = std::fs::read_dir(split)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name().unwrap().to_string_lossy().starts_with("unit-") && p.extension().is_some_and(|e| e == "out")
        })
        .collect();
    results.sort();
    assert_eq!(results.len(), 6, "one results file per unit");
    let out = Command::new(bin())
        .args(["perft", "merge", "--json"])
        .arg(split.join("manifest.json"))
        .args(&results)
        .assert()
        .success();
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    doc["nodes"].clone()
}

fn joblog_exit_codes(split: &Path) -> Vec<String> {
    let log = std::fs::read_to_string(split.join("joblog-out")).unwrap();
    log.lines().skip(1).map(|l| l.split('\t').nth(6).unwrap().to_string()).collect()
}

#[test]
fn gnu_parallel_runs_the_units_and_resumes_the_failed_one() {
    if !repo().join("scripts").is_dir() {
        return skip("gnu_parallel", "scripts/ is not here (the crate's package leaves it out)", true);
    }
    if !have("parallel") {
        return skip("gnu_parallel", "GNU parallel is not installed (apt-get install parallel)", true);
    }
    let dir = TempDir::new("parallel");
    let split = split(&dir.0);
    // One unit broken (its checksum no longer matches): that job fails.
    let broken = split.join("unit-000002.txt");
    let good = std::fs::read(&broken).unwrap();
    std::fs::write(&broken, [&good[..], b"x"].concat()).unwrap();
    let run = || {
        std::process::Command::new("bash")
            .arg(repo().join("scripts/perft_parallel.sh"))
            .arg(&split)
            .arg(":")
            .env("JOBS", "2")
            .env("CHESSTOOL", bin())
            .output()
            .unwrap()
    };
    let first = run();
    assert_eq!(first.status.code(), Some(1), "one failed job: {}", String::from_utf8_lossy(&first.stderr));
    let codes = joblog_exit_codes(&split);
    assert_eq!(codes.len(), 6);
    assert_eq!(codes.iter().filter(|c| *c == "2").count(), 1, "{codes:?}");
    // Repaired, the same command runs only the failed unit.
    std::fs::write(&broken, good).unwrap();
    let second = run();
    assert!(second.status.success(), "{}", String::from_utf8_lossy(&second.stderr));
    let codes = joblog_exit_codes(&split);
    assert_eq!(codes.len(), 7, "only the failed job ran again: {codes:?}");
    assert_eq!(codes[6], "0");
    assert_eq!(merged_nodes(&split), PERFT5);
}

/// `scripts/slurm_local.sh run DIR`, stopped (SIGTERM, which stops and reaps
/// the daemons) when dropped.
struct LocalSlurm {
    child: std::process::Child,
    dir: PathBuf,
}

impl LocalSlurm {
    /// Starts it and waits until the node is idle; the reason if it cannot.
    fn start(dir: &Path) -> Result<LocalSlurm, String> {
        let log = std::fs::File::create(dir.join("slurm_local.log")).unwrap();
        let child = std::process::Command::new("bash")
            .arg(repo().join("scripts/slurm_local.sh"))
            .arg("run")
            .arg(dir.join("state"))
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot run scripts/slurm_local.sh: {e}"))?;
        let mut slurm = LocalSlurm { child, dir: dir.to_path_buf() };
        let started = Instant::now();
        while !dir.join("state/ready").exists() {
            if let Some(status) = slurm.child.try_wait().unwrap() {
                return Err(format!("scripts/slurm_local.sh exited ({status}): {}", slurm.log_tail()));
            }
            if started.elapsed() > Duration::from_secs(60) {
                return Err(format!("the node was not idle within 60 s: {}", slurm.log_tail()));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Ok(slurm)
    }

    fn log_tail(&self) -> String {
        let log = std::fs::read_to_string(self.dir.join("slurm_local.log")).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(5)..].join(" | ")
    }

    fn conf(&self) -> PathBuf {
        self.dir.join("state/slurm.conf")
    }
}

impl Drop for LocalSlurm {
    fn drop(&mut self) {
        // Safety: a plain kill(2) of our own child's pid.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM);
        }
        let _ = self.child.wait();
    }
}

#[test]
fn slurm_array_job_runs_the_units() {
    if !repo().join("scripts").is_dir() {
        return skip("slurm_array_job", "scripts/ is not here (the crate's package leaves it out)", true);
    }
    let tools = ["munged", "slurmctld", "slurmd", "sbatch"];
    if let Some(missing) = tools.iter().find(|t| !have(t)) {
        return skip("slurm_array_job", &format!("{missing} is not installed (apt-get install slurm-wlm munge)"), true);
    }
    // Safety: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return skip("slurm_array_job", "slurmd must run as root to start jobs, and this test is not root", false);
    }
    let dir = TempDir::new("slurm");
    let slurm = match LocalSlurm::start(&dir.0) {
        Ok(s) => s,
        Err(reason) => return skip("slurm_array_job", &format!("Slurm cannot stand up here: {reason}"), false),
    };
    let split = split(&dir.0);
    let units = std::fs::read_dir(&split)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "txt"))
        .count();
    let out = std::process::Command::new("timeout")
        .arg("300")
        .arg("sbatch")
        .arg("--wait")
        .arg(format!("--array=0-{}", units - 1))
        .arg("--output")
        .arg(split.join("slurm-%a.log"))
        .arg(repo().join("examples/slurm_perft_units.sh"))
        .arg(&split)
        .args(["--hash", "8"])
        .env("SLURM_CONF", slurm.conf())
        .env("CHESSTOOL", bin())
        .env("PATH", format!("{}:/usr/sbin", std::env::var("PATH").unwrap_or_default()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "sbatch --wait: {} {} {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        slurm.log_tail()
    );
    assert_eq!(merged_nodes(&split), PERFT5);
    drop(slurm);
}
