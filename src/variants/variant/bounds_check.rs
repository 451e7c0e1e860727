//! A FEN's pieces against the variant's bounds: a piece outside its
//! mobility region, or generals that face each other (Xiangqi), is refused.

use super::definition::Variant;
use super::fen::side_name;
use crate::variants::board::{cell_kind, Position, BLACK, NO_SQUARE, WHITE};

impl Variant {
    /// A piece outside its mobility region, or generals facing each other
    /// with `flyingGeneral`, makes an illegal position.
    pub(super) fn check_bounds(&self, pos: &Position) -> Result<(), String> {
        let (g, t) = (&self.geometry, &self.tables);
        for side in [WHITE, BLACK] {
            for &cell in &pos.lists[side] {
                let kind = cell_kind(pos.cells[cell as usize]);
                if t.laws.bounds.region(kind, side).is_some_and(|r| !r.has(cell as usize)) {
                    let name = &self.pieces[kind].name;
                    let key =
                        format!("mobilityRegion{}{}{}", ["White", "Black"][side], name[..1].to_uppercase(), &name[1..]);
                    let (who, at) = (side_name(side), g.name(cell as usize));
                    return Err(format!("illegal position: the {who} {name} on {at} is outside its region ({key})"));
                }
            }
        }
        let (w, b) = (pos.royal[WHITE], pos.royal[BLACK]);
        if t.laws.bounds.flying_general
            && w != NO_SQUARE
            && b != NO_SQUARE
            && t.general_faces(pos, w as usize, BLACK, usize::MAX)
        {
            let file = (b'a' + g.coords(w as usize).0) as char;
            return Err(format!("illegal position: the generals face each other on the {file}-file (flyingGeneral)"));
        }
        Ok(())
    }
}
