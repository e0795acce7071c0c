//! `kibitz puzzles …`: the puzzle generator and the check of a set, around the bot crate's
//! [`kibitz_bot::puzzles`]. A set is a JSON Lines file, one puzzle a line (the server ships
//! `server/puzzles/<variant>.jsonl`).

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use clap::Subcommand;

use game_core::puzzle::Puzzle;
use kibitz_bot::puzzles::{self, GenerateOptions, Variant};

#[derive(Subcommand, Debug)]
pub enum PuzzlesCommand {
    /// Play bot-vs-bot games and make puzzles of their positions where the side to move has a
    /// forced win, each proven by its game's solver; write them as JSON Lines.
    Generate {
        /// gomoku-freestyle, gomoku-renju, othello or connect4.
        #[arg(long)]
        variant: String,
        /// Puzzles to make.
        #[arg(long, default_value_t = 300)]
        count: usize,
        /// Seeds the games: the same seed makes the same set.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games to play at most.
        #[arg(long, default_value_t = 100_000)]
        max_games: usize,
        /// Nodes of each engine move in the games.
        #[arg(long, default_value_t = 4000)]
        move_nodes: u64,
        /// Gomoku: VCT puzzles (positions without a VCF) rather than VCF ones.
        #[arg(long)]
        vct: bool,
        /// The number of the first puzzle's id (to add to a set: one past its last).
        #[arg(long, default_value_t = 1)]
        first_id: usize,
        /// Add to the file rather than replace it.
        #[arg(long)]
        append: bool,
        /// The file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Prove every puzzle of the sets again and compare with what is stored.
    Verify {
        /// JSON Lines files of puzzles.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

pub fn run(command: PuzzlesCommand) -> anyhow::Result<()> {
    match command {
        PuzzlesCommand::Generate {
            variant,
            count,
            seed,
            max_games,
            move_nodes,
            vct,
            first_id,
            append,
            out,
        } => {
            let variant = Variant::parse(&variant).with_context(|| {
                format!("no puzzles for {variant:?}: gomoku-freestyle, gomoku-renju, othello or connect4")
            })?;
            let options = GenerateOptions {
                variant,
                count,
                seed,
                max_games,
                move_nodes,
                vct,
                first_id,
            };
            let (set, r) = puzzles::generate(&options, |line| eprintln!("{line}"));
            write_set(&out, &set, append)?;
            let nodes: usize = set.iter().map(|p| p.proof.size()).sum();
            println!(
                "{}: {} puzzles from {} games ({} positions, {} candidates: {} kept, {} duplicates, \
                 {} trees too big, {} unproven, {} other) in {:.1} s; {} proof nodes; wrote {}",
                variant.key(), set.len(), r.games, r.positions, r.candidates, r.kept, r.duplicates,
                r.too_big, r.unknown, r.other, r.ms as f64 / 1000.0, nodes, out.display()
            );
            Ok(())
        }
        PuzzlesCommand::Verify { files } => {
            let mut total = 0;
            let mut failed = 0;
            for file in files {
                let set = read_set(&file)?;
                let started = Instant::now();
                let failures = puzzles::verify(&set);
                for (id, why) in &failures {
                    println!("{id}: {why}");
                }
                println!(
                    "{}: {} puzzles proven again, {} differ, in {:.1} s",
                    file.display(),
                    set.len(),
                    failures.len(),
                    started.elapsed().as_secs_f64()
                );
                total += set.len();
                failed += failures.len();
            }
            anyhow::ensure!(
                failed == 0,
                "{failed} of {total} puzzles differ from their proof"
            );
            Ok(())
        }
    }
}

fn write_set(path: &Path, set: &[Puzzle], append: bool) -> anyhow::Result<()> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(path)?;
    let mut out = std::io::BufWriter::new(file);
    for p in set {
        serde_json::to_writer(&mut out, p)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

fn read_set(path: &Path) -> anyhow::Result<Vec<Puzzle>> {
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    std::io::BufReader::new(file)
        .lines()
        .enumerate()
        .filter(|(_, l)| l.as_ref().map_or(true, |l| !l.trim().is_empty()))
        .map(|(i, line)| {
            serde_json::from_str(&line?)
                .with_context(|| format!("{} line {}", path.display(), i + 1))
        })
        .collect()
}
