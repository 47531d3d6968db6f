//! The `tiledb-codec` command line: a thin layer over the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tiledb_codec::filters::ReadOptions;
use tiledb_codec::inspect;

#[derive(Parser)]
#[command(
    name = "tiledb-codec",
    version,
    about = "Read and inspect TileDB arrays without the TileDB library"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Show what PATH is (array, group, fragment or file) and everything decoded from it.
    Inspect {
        /// An array or group folder, a fragment folder, or a single file.
        path: PathBuf,
        /// Print JSON instead of a tree.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Inspect { path, json } => {
            match inspect::inspect_json(&path, &ReadOptions::default()) {
                Ok(v) => {
                    if json {
                        println!(
                            "{}",
                            serde_json::to_string_pretty(&v).expect("JSON values serialize")
                        );
                    } else {
                        print!("{}", inspect::tree(&v));
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}
