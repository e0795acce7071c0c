//! The learned evaluation's weights: what an empty point is worth to a colour, by the *shape*
//! of the point (the four line patterns a stone there would make, in any order), by whether
//! the colour is to move or waiting, and by the rule and colour (freestyle, standard, renju
//! black, renju white), trained by `bot/examples/gomoku_learn` and shipped in
//! `eval_weights.txt`.
//!
//! A table over whole shapes sees what the pattern weights and combination bonuses of
//! [`super::points`] cannot: that a three beside two open twos is worth more than their sum,
//! or that a point forbidden to renju black is worth something to white. Where the file has
//! no table for a class, the class takes the fitted pattern weights of [`super::points`]
//! (the *prior*, which the trainer also starts from and is held near).

use std::sync::OnceLock;

use game_core::{Color, GomokuRule};

use super::params::{MOVER_DEN, MOVER_NUM};
use super::pattern::{Pattern, PATTERNS};
use super::points;

/// Number of shapes: the multisets of four patterns, C(13, 4).
pub const SHAPES: usize = 715;
/// Weights are kept in quarters of a centi-stone, so that the sum over a board's points
/// rounds no coarser than the old evaluation's halves.
pub const UNIT: i32 = 4;
/// Roles in the evaluation: the colour to move, then the colour waiting.
pub const MOVER: usize = 0;
pub const WAITING: usize = 1;
/// Roles in the move order: a point's shape for the colour that plays there, then for the
/// colour whose point it takes away.
pub const ATTACK: usize = 0;
pub const DEFEND: usize = 1;

/// The rule-and-colour classes that have their own weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Freestyle,
    Standard,
    RenjuBlack,
    RenjuWhite,
}

impl Class {
    pub const ALL: [Class; 4] = [
        Class::Freestyle,
        Class::Standard,
        Class::RenjuBlack,
        Class::RenjuWhite,
    ];

    /// The class of `color` under `rule`.
    #[must_use]
    pub fn of(rule: GomokuRule, color: Color) -> Class {
        match (rule, color) {
            (GomokuRule::Freestyle, _) => Class::Freestyle,
            (GomokuRule::Standard, _) => Class::Standard,
            (GomokuRule::Renju, Color::Black) => Class::RenjuBlack,
            (GomokuRule::Renju, Color::White) => Class::RenjuWhite,
        }
    }

    /// The name the weights file uses.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Class::Freestyle => "freestyle",
            Class::Standard => "standard",
            Class::RenjuBlack => "renju-black",
            Class::RenjuWhite => "renju-white",
        }
    }

    fn from_name(name: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// Every shape's four patterns, strongest first, in shape order: the order of the weights
/// file's numbers.
#[must_use]
pub fn shapes() -> &'static [[Pattern; 4]; SHAPES] {
    static SHAPE_LIST: OnceLock<[[Pattern; 4]; SHAPES]> = OnceLock::new();
    SHAPE_LIST.get_or_init(|| {
        let mut list = [[Pattern::None; 4]; SHAPES];
        let mut n = 0;
        for a in (0..PATTERNS).rev() {
            for b in (0..=a).rev() {
                for c in (0..=b).rev() {
                    for d in (0..=c).rev() {
                        list[n] = [a, b, c, d].map(|i| Pattern::ALL[i]);
                        n += 1;
                    }
                }
            }
        }
        list
    })
}

/// The shape of a point with these patterns, in any order.
#[must_use]
pub fn shape_of(patterns: &[Pattern; 4]) -> u16 {
    static INDEX: OnceLock<Vec<u16>> = OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut index = vec![0u16; PATTERNS.pow(4)];
        for (n, shape) in shapes().iter().enumerate() {
            index[usize::from(sorted_code(shape))] = n as u16;
        }
        index
    });
    let mut sorted = *patterns;
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    index[usize::from(sorted_code(&sorted))]
}

fn sorted_code(p: &[Pattern; 4]) -> u16 {
    p.iter().fold(0, |acc, &x| acc * PATTERNS as u16 + x as u16)
}

/// The prior of a class: the fitted pattern weights ([`points::point_worth`]) as the old
/// evaluation counted them, the mover's share times `MOVER_NUM / MOVER_DEN`, both halved.
#[must_use]
pub fn prior(class: Class) -> [[f64; SHAPES]; 2] {
    let renju_black = class == Class::RenjuBlack;
    let mut w = [[0.0; SHAPES]; 2];
    for (n, shape) in shapes().iter().enumerate() {
        let worth = f64::from(points::point_worth(shape, renju_black));
        w[MOVER][n] = worth * f64::from(MOVER_NUM) / f64::from(MOVER_DEN) / 2.0;
        w[WAITING][n] = worth / 2.0;
    }
    w
}

/// The weights of every class and role: the evaluation's in [`UNIT`]s, and the move
/// order's (a point ranks by its attack score for the mover plus its defence score for the
/// opponent).
pub struct Learned {
    tables: [[[i16; SHAPES]; 2]; 4],
    orders: [[[i16; SHAPES]; 2]; 4],
}

/// The move order's prior: the hand-set values of [`super::points`], the mover's counted 5/4.
#[must_use]
pub fn order_prior(class: Class) -> [[f64; SHAPES]; 2] {
    let renju_black = class == Class::RenjuBlack;
    let mut w = [[0.0; SHAPES]; 2];
    for (n, shape) in shapes().iter().enumerate() {
        let value = points::point_value(shape, renju_black);
        w[ATTACK][n] = f64::from(value * 5 / 4);
        w[DEFEND][n] = f64::from(value);
    }
    w
}

impl std::fmt::Debug for Learned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Learned")
    }
}

/// The shipped weights (see [`Learned::parse`] for the format).
const SHIPPED: &str = include_str!("eval_weights.txt");

static SHARED: OnceLock<Learned> = OnceLock::new();

impl Learned {
    /// The weights every board uses: the shipped ones, unless [`Learned::install`] came first.
    #[must_use]
    pub fn shared() -> &'static Learned {
        SHARED.get_or_init(|| Learned::parse(SHIPPED).expect("the shipped weights read"))
    }

    /// Makes `text`'s weights the ones every board of this process uses, in place of the
    /// shipped ones (the trainer's, to measure a weights file before it is shipped). Refused
    /// once any board has read the weights.
    pub fn install(text: &str) -> Result<(), String> {
        let learned = Learned::parse(text)?;
        SHARED
            .set(learned)
            .map_err(|_| "the weights are in use already".to_string())
    }

    /// Weights from text: `#` comment lines, then per class and role a line `<class>
    /// <mover|waiting>` followed by its [`SHAPES`] numbers in shape order (in [`UNIT`]s),
    /// whitespace-separated. Classes the text leaves out take their [`prior`].
    pub fn parse(text: &str) -> Result<Learned, String> {
        let mut tables = [[[0i16; SHAPES]; 2]; 4];
        let mut orders = [[[0i16; SHAPES]; 2]; 4];
        let mut given = [[false; 2]; 4];
        let mut order_given = [[false; 2]; 4];
        let mut words = text
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(str::split_whitespace)
            .peekable();
        while let Some(name) = words.next() {
            let class = Class::from_name(name).ok_or(format!("unknown class {name:?}"))?;
            let (table, seen, role) = match words.next() {
                Some("mover") => (&mut tables, &mut given, MOVER),
                Some("waiting") => (&mut tables, &mut given, WAITING),
                Some("attack") => (&mut orders, &mut order_given, ATTACK),
                Some("defend") => (&mut orders, &mut order_given, DEFEND),
                other => return Err(format!("{name}: role {other:?}")),
            };
            for (n, slot) in table[class as usize][role].iter_mut().enumerate() {
                let word = words
                    .next()
                    .ok_or(format!("{name}: {n} of {SHAPES} weights"))?;
                *slot = word
                    .parse()
                    .map_err(|_| format!("{name}: weight {word:?}"))?;
            }
            seen[class as usize][role] = true;
        }
        for class in Class::ALL {
            let (prior, order_prior) = (prior(class), order_prior(class));
            for role in 0..2 {
                if !given[class as usize][role] {
                    tables[class as usize][role] =
                        prior[role].map(|w| (w * f64::from(UNIT)).round() as i16);
                }
                if !order_given[class as usize][role] {
                    orders[class as usize][role] = order_prior[role].map(|w| w as i16);
                }
            }
        }
        Ok(Learned { tables, orders })
    }

    /// What a point of `shape` scores in the move order for a colour of `class`, as the
    /// colour that plays there and as the colour it is taken from.
    #[must_use]
    pub fn order(&self, class: Class, shape: u16) -> [i16; 2] {
        let t = &self.orders[class as usize];
        [t[ATTACK][usize::from(shape)], t[DEFEND][usize::from(shape)]]
    }

    /// One class's move-order tables.
    #[must_use]
    pub fn class_orders(&self, class: Class) -> [[i16; SHAPES]; 2] {
        self.orders[class as usize]
    }

    /// What a point of `shape` is worth to a colour of `class`, as mover and as waiting.
    #[must_use]
    pub fn worth(&self, class: Class, shape: u16) -> [i16; 2] {
        let t = &self.tables[class as usize];
        [t[MOVER][usize::from(shape)], t[WAITING][usize::from(shape)]]
    }

    /// The text of one class's evaluation tables (`order` false) or move-order tables, as
    /// [`Learned::parse`] reads it.
    #[must_use]
    pub fn write_class(class: Class, tables: &[[i16; SHAPES]; 2], order: bool) -> String {
        let mut out = String::new();
        let names = if order {
            [(ATTACK, "attack"), (DEFEND, "defend")]
        } else {
            [(MOVER, "mover"), (WAITING, "waiting")]
        };
        for (role, name) in names {
            out.push_str(&format!("{} {name}\n", class.name()));
            for row in tables[role].chunks(20) {
                let words: Vec<String> = row.iter().map(i16::to_string).collect();
                out.push_str(&words.join(" "));
                out.push('\n');
            }
        }
        out
    }

    /// One class's tables.
    #[must_use]
    pub fn class_tables(&self, class: Class) -> [[i16; SHAPES]; 2] {
        self.tables[class as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_every_multiset_once() {
        use Pattern::*;
        let list = shapes();
        assert_eq!(list[0], [Five; 4]);
        assert_eq!(list[SHAPES - 1], [Overline; 4]);
        let mut seen = std::collections::HashSet::new();
        for s in list {
            assert!(s.windows(2).all(|w| w[0] >= w[1]));
            assert!(seen.insert(*s));
        }
        assert_eq!(
            shape_of(&[Flex2, Five, None, Flex3]),
            shape_of(&[None, Flex3, Flex2, Five])
        );
    }

    #[test]
    fn a_missing_class_takes_its_prior_and_bad_text_is_refused() {
        let empty = Learned::parse("# nothing\n").expect("reads");
        let four_three = shape_of(&[
            Pattern::Block4,
            Pattern::Flex3,
            Pattern::None,
            Pattern::None,
        ]);
        let [mover, waiting] = empty.worth(Class::Freestyle, four_three);
        assert!(mover > waiting && waiting > 0);
        assert_eq!(empty.worth(Class::RenjuBlack, four_three), [0, 0]);
        let text = Learned::write_class(
            Class::Standard,
            &empty.class_tables(Class::Freestyle),
            false,
        );
        let back = Learned::parse(&text).expect("reads its own text");
        assert_eq!(
            back.class_tables(Class::Standard),
            empty.class_tables(Class::Freestyle)
        );
        // The move order's prior is the hand-set value, the attacker's counted 5/4.
        let [attack, defend] = empty.order(Class::Freestyle, four_three);
        assert_eq!(
            i32::from(defend),
            points::point_value(&shapes()[usize::from(four_three)], false)
        );
        assert_eq!(i32::from(attack), i32::from(defend) * 5 / 4);
        assert!(Learned::parse("freestyle mover 1 2 3").is_err());
        assert!(Learned::parse("chess mover").is_err());
        let _ = Learned::shared();
    }
}
