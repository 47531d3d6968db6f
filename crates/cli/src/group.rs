//! `group create|add|remove|list|meta`: groups as the engine writes them.

use std::path::PathBuf;

use crate::out::outln;
use clap::Subcommand;
use tiledb_codec::maintain::{self, GroupMember, MetadataOptions, NewMember};
use tiledb_codec::ReadOptions;
use tiledb_codec_cli::summary::escape_controls;

/// The group commands.
#[derive(Subcommand)]
pub enum GroupCommand {
    /// Create an empty group at PATH (which must not exist).
    Create { path: PathBuf },
    /// Add MEMBER (an array or group; a path, or with --relative a path
    /// relative to GROUP) to GROUP.
    Add {
        group: PathBuf,
        member: String,
        /// The member's name in the group (names must be unique).
        #[arg(long)]
        name: Option<String>,
        /// Keep the member's URI relative to the group.
        #[arg(long)]
        relative: bool,
        #[command(flatten)]
        change: ChangeArgs,
    },
    /// Remove the member with NAME_OR_URI from GROUP (the member itself is
    /// left alone).
    Remove {
        group: PathBuf,
        name_or_uri: String,
        #[command(flatten)]
        change: ChangeArgs,
    },
    /// List GROUP's members: name, type, URI.
    List {
        group: PathBuf,
        /// Print JSON: name, uri, type, relative.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        key: super::KeyArg,
    },
    /// The group's metadata: put, delete, list (as `meta`).
    Meta(super::meta::MetaArgs),
}

/// The options of a group change.
#[derive(clap::Args)]
pub struct ChangeArgs {
    /// The timestamp of the change, in milliseconds since 1970 (default:
    /// now, later than every details file there).
    #[arg(long, value_name = "T")]
    timestamp: Option<u64>,
    #[command(flatten)]
    key: super::KeyArg,
}

impl ChangeArgs {
    fn options(&self) -> Result<MetadataOptions, String> {
        let mut opts = MetadataOptions::default();
        opts.timestamp = self.timestamp;
        opts.encryption_key = self.key.key()?;
        Ok(opts)
    }
}

fn describe(m: &GroupMember) -> String {
    format!(
        "{} {} {}{}",
        m.name
            .as_deref()
            .map_or("(unnamed)".into(), escape_controls),
        m.object_type,
        escape_controls(&m.uri),
        if m.relative { " (relative)" } else { "" }
    )
}

/// Runs a `group` command.
pub fn run(cmd: &GroupCommand) -> Result<(), String> {
    match cmd {
        GroupCommand::Create { path } => {
            maintain::create_group(path).map_err(|e| e.to_string())?;
            outln!("created group {}", path.display())?;
        }
        GroupCommand::Add {
            group,
            member,
            name,
            relative,
            change,
        } => {
            let new = NewMember::new(member.clone(), name.clone(), *relative);
            let (m, file) =
                maintain::add_member(group, &new, &change.options()?).map_err(|e| e.to_string())?;
            outln!(
                "{}: added {} in __group/{}",
                group.display(),
                describe(&m),
                file.file_name().unwrap_or_default().to_string_lossy()
            )?;
        }
        GroupCommand::Remove {
            group,
            name_or_uri,
            change,
        } => {
            let (m, file) = maintain::remove_member(group, name_or_uri, &change.options()?)
                .map_err(|e| e.to_string())?;
            outln!(
                "{}: removed {} in __group/{}",
                group.display(),
                describe(&m),
                file.file_name().unwrap_or_default().to_string_lossy()
            )?;
        }
        GroupCommand::List { group, json, key } => {
            let opts: ReadOptions = key.options()?;
            let ms = maintain::group_members(group, &opts).map_err(|e| e.to_string())?;
            if *json {
                let v: Vec<serde_json::Value> = ms
                    .iter()
                    .map(|m| {
                        serde_json::json!({
                            "name": m.name,
                            "uri": m.uri,
                            "type": m.object_type.to_string(),
                            "relative": m.relative,
                        })
                    })
                    .collect();
                crate::out::json(&serde_json::Value::Array(v))?;
            } else {
                for m in &ms {
                    outln!("{}", describe(m))?;
                }
            }
        }
        GroupCommand::Meta(args) => super::meta::run(args)?,
    }
    Ok(())
}
