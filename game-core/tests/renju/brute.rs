//! A brute-force checker that follows the definitions word by word, and its cross-check of
//! the fast line-walk checker.

use super::*;

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A plain board for the brute-force checker: everything by coordinates and explicit windows.
struct Plain {
    n: i32,
    cells: Vec<Option<Color>>,
}

impl Plain {
    fn on(&self, (c, r): (i32, i32)) -> bool {
        (0..self.n).contains(&c) && (0..self.n).contains(&r)
    }
    fn get(&self, p: (i32, i32)) -> Option<Option<Color>> {
        self.on(p)
            .then(|| self.cells[(p.1 * self.n + p.0) as usize])
    }
    fn set(&mut self, p: (i32, i32), s: Option<Color>) {
        self.cells[(p.1 * self.n + p.0) as usize] = s;
    }
    fn black(&self, p: (i32, i32)) -> bool {
        self.get(p) == Some(Some(Color::Black))
    }
    fn empty(&self, p: (i32, i32)) -> bool {
        self.get(p) == Some(None)
    }
    /// The maximal black run through `p` in direction `d`, as a list of points.
    fn run(&self, p: (i32, i32), d: (i32, i32)) -> Vec<(i32, i32)> {
        let mut start = p;
        while self.black((start.0 - d.0, start.1 - d.1)) {
            start = (start.0 - d.0, start.1 - d.1);
        }
        let mut out = Vec::new();
        let mut q = start;
        while self.black(q) {
            out.push(q);
            q = (q.0 + d.0, q.1 + d.1);
        }
        out
    }

    /// For each point that completes an exact five through `p` along `d`, the four it
    /// completes (the five's stones without that point). Equal fours count once.
    fn fours(&mut self, p: (i32, i32), d: (i32, i32)) -> BTreeMap<Vec<(i32, i32)>, usize> {
        let mut fours = BTreeMap::new();
        for k in -5..=5 {
            let q = (p.0 + k * d.0, p.1 + k * d.1);
            if k == 0 || !self.empty(q) {
                continue;
            }
            self.set(q, Some(Color::Black));
            let run = self.run(q, d);
            if run.len() == 5 && run.contains(&p) {
                let mut four = run;
                four.retain(|&x| x != q);
                four.sort_unstable();
                *fours.entry(four).or_insert(0) += 1;
            }
            self.set(q, None);
        }
        fours
    }

    fn forbidden(&mut self, p: (i32, i32)) -> Option<Forbidden> {
        self.set(p, Some(Color::Black));
        let kind = self.placed(p);
        self.set(p, None);
        kind
    }

    fn placed(&mut self, p: (i32, i32)) -> Option<Forbidden> {
        if DIRS.iter().any(|&d| self.run(p, d).len() == 5) {
            return None;
        }
        if DIRS.iter().any(|&d| self.run(p, d).len() > 5) {
            return Some(Forbidden::Overline);
        }
        let four_counts: Vec<usize> = DIRS.iter().map(|&d| self.fours(p, d).len()).collect();
        if four_counts.iter().sum::<usize>() >= 2 {
            return Some(Forbidden::DoubleFour);
        }
        let mut threes = 0;
        for (k, &d) in DIRS.iter().enumerate() {
            if four_counts[k] > 0 {
                continue;
            }
            let mut three = false;
            for j in -5..=5 {
                let q = (p.0 + j * d.0, p.1 + j * d.1);
                if j == 0 || !self.empty(q) {
                    continue;
                }
                self.set(q, Some(Color::Black));
                // A straight four: one four completed by two different points.
                let straight = self
                    .fours(p, d)
                    .iter()
                    .any(|(four, &n)| n >= 2 && four.contains(&q));
                self.set(q, None);
                if straight && self.forbidden(q).is_none() {
                    three = true;
                    break;
                }
            }
            threes += usize::from(three);
        }
        (threes >= 2).then_some(Forbidden::DoubleThree)
    }
}

#[test]
fn brute_force_agrees_with_the_table() {
    for case in RENJU_CASES {
        let pos =
            Gomoku::from_stones(15, case.rule, &cells(case.black), &cells(case.white)).unwrap();
        let mut plain = Plain {
            n: 15,
            cells: pos.cells().to_vec(),
        };
        let p: Cell = case.point.parse().unwrap();
        let expected = match case.expect {
            Forbid(k) => Some(k),
            _ => None,
        };
        assert_eq!(
            plain.forbidden((i32::from(p.col), i32::from(p.row))),
            expected,
            "{}",
            case.label
        );
    }
}

fn board_strategy() -> impl Strategy<Value = (u8, Vec<u8>)> {
    (7u8..=11).prop_flat_map(|n| {
        let cells = usize::from(n) * usize::from(n);
        // 0..=9: black with 4 in 10, white with 1 in 10, so lines of black are common.
        (Just(n), proptest::collection::vec(0u8..10, cells))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn line_walk_checker_agrees_with_brute_force((n, raw) in board_strategy()) {
        let stones: Vec<Option<Color>> = raw
            .iter()
            .map(|&v| match v {
                0..=3 => Some(Color::Black),
                4 => Some(Color::White),
                _ => None,
            })
            .collect();
        let mut plain = Plain { n: i32::from(n), cells: stones.clone() };
        let mut board = renju::RenjuBoard::from_stones(n, &stones);
        for row in 0..n {
            for col in 0..n {
                let cell = Cell::new(col, row);
                let fast = board.forbidden(cell);
                let slow = if plain.empty((i32::from(col), i32::from(row))) {
                    plain.forbidden((i32::from(col), i32::from(row)))
                } else {
                    None
                };
                prop_assert_eq!(fast, slow, "{} on {:?}", cell, raw);
            }
        }
    }
}
