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
        /// The AES-256-GCM key of an encrypted array: 32 characters, whose
        /// bytes are the key (as TileDB's `sm.encryption_key` takes it).
        #[arg(long, value_name = "KEY", value_parser = parse_key)]
        encryption_key: Option<[u8; 32]>,
    },
}

/// A key as TileDB takes it: the raw bytes of a 32-byte string.
fn parse_key(s: &str) -> Result<[u8; 32], String> {
    s.as_bytes()
        .try_into()
        .map_err(|_| format!("an AES-256-GCM key is 32 bytes; this one has {}", s.len()))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Inspect {
            path,
            json,
            encryption_key,
        } => {
            let opts = ReadOptions {
                encryption_key,
                ..ReadOptions::default()
            };
            match inspect::inspect_json(&path, &opts) {
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
