//! The command-line helpers the training examples share: `--name value` flags and the one way
//! they stop on bad input.

/// The value after `name` in `args`, read as a `T`, or `default` when `name` is not there.
/// A flag without a value, or with one that does not read, stops the program saying which.
pub fn flag<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    let Some(i) = args.iter().position(|a| a == name) else {
        return default;
    };
    match args.get(i + 1) {
        None => fail(&format!("{name} needs a value")),
        Some(v) => v
            .parse()
            .unwrap_or_else(|_| fail(&format!("{name}: {v:?} does not read as a value of it"))),
    }
}

/// Stops the program with `message`, prefixed with the program's name, and exit status 2.
pub fn fail(message: &str) -> ! {
    let program = std::env::args()
        .next()
        .and_then(|p| {
            std::path::Path::new(&p)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .unwrap_or_default();
    eprintln!("{program}: {message}");
    std::process::exit(2);
}
