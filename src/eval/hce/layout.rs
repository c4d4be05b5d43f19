//! The hand-crafted evaluation's layout: where each group of weights starts in the flat table.
//! The tuner fits every entry of that table; `weights.rs` holds the fitted values.

pub const MATERIAL: usize = 0;
pub const PST: usize = MATERIAL + 6;
pub const KNIGHT_MOBILITY: usize = PST + 6 * 64;
pub const BISHOP_MOBILITY: usize = KNIGHT_MOBILITY + 9;
pub const ROOK_MOBILITY: usize = BISHOP_MOBILITY + 14;
pub const QUEEN_MOBILITY: usize = ROOK_MOBILITY + 15;
pub const PASSED_PAWN: usize = QUEEN_MOBILITY + 28;
pub const PASSED_FREE_PATH: usize = PASSED_PAWN + 8;
pub const PASSED_OWN_KING_DISTANCE: usize = PASSED_FREE_PATH + 8;
pub const PASSED_ENEMY_KING_DISTANCE: usize = PASSED_OWN_KING_DISTANCE + 8;
pub const ISOLATED_PAWN: usize = PASSED_ENEMY_KING_DISTANCE + 8;
pub const DOUBLED_PAWN: usize = ISOLATED_PAWN + 1;
pub const BACKWARD_PAWN: usize = DOUBLED_PAWN + 1;
pub const CONNECTED_PAWN: usize = BACKWARD_PAWN + 1;
pub const BISHOP_PAIR: usize = CONNECTED_PAWN + 8;
pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
pub const ROOK_SEMI_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
pub const KING_SHIELD: usize = ROOK_SEMI_OPEN_FILE + 1;
pub const KING_OPEN_FILE: usize = KING_SHIELD + 3;
pub const KING_ZONE_ATTACKS: usize = KING_OPEN_FILE + 1;
pub const KING_ATTACKERS: usize = KING_ZONE_ATTACKS + 6;
pub const THREAT_BY_PAWN: usize = KING_ATTACKERS + 8;
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 6;
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 6;
pub const HANGING: usize = THREAT_BY_ROOK + 6;
pub const TEMPO: usize = HANGING + 1;
pub const COUNT: usize = TEMPO + 1;

/// Names of the groups, for the tuner's output: (name, start, length, kind of index).
pub const GROUPS: [(&str, usize, usize); 26] = [
    ("material", MATERIAL, 6),
    ("piece-square", PST, 6 * 64),
    ("knight mobility", KNIGHT_MOBILITY, 9),
    ("bishop mobility", BISHOP_MOBILITY, 14),
    ("rook mobility", ROOK_MOBILITY, 15),
    ("queen mobility", QUEEN_MOBILITY, 28),
    ("passed pawn by rank", PASSED_PAWN, 8),
    ("passed pawn with free path by rank", PASSED_FREE_PATH, 8),
    (
        "passed pawn: own king distance to its stop square",
        PASSED_OWN_KING_DISTANCE,
        8,
    ),
    (
        "passed pawn: enemy king distance to its stop square",
        PASSED_ENEMY_KING_DISTANCE,
        8,
    ),
    ("isolated pawn", ISOLATED_PAWN, 1),
    ("doubled pawn", DOUBLED_PAWN, 1),
    ("backward pawn", BACKWARD_PAWN, 1),
    ("connected pawn by rank", CONNECTED_PAWN, 8),
    ("bishop pair", BISHOP_PAIR, 1),
    ("rook on open file", ROOK_OPEN_FILE, 1),
    ("rook on semi-open file", ROOK_SEMI_OPEN_FILE, 1),
    ("king pawn shield by distance", KING_SHIELD, 3),
    ("king on or beside an open file", KING_OPEN_FILE, 1),
    ("king-zone attacks by piece type", KING_ZONE_ATTACKS, 6),
    ("king attackers by count", KING_ATTACKERS, 8),
    ("threat by pawn on piece type", THREAT_BY_PAWN, 6),
    ("threat by minor on piece type", THREAT_BY_MINOR, 6),
    ("threat by rook on piece type", THREAT_BY_ROOK, 6),
    ("hanging piece", HANGING, 1),
    ("tempo", TEMPO, 1),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_parameter_table() {
        let mut next = 0;
        for (name, start, len) in GROUPS {
            assert_eq!(start, next, "{name} starts where the previous group ends");
            next += len;
        }
        assert_eq!(next, COUNT);
    }
}
