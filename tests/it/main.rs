//! The integration tests: one binary (modules by topic), so the crate and
//! its dependencies are linked once. Shared helpers: `common` (fixtures and
//! the TileDB engine) and `write_support` (the writer's tests).

mod common;
/// The fuzz crate's helpers: `array_open_export` inputs are replayed by
/// the target's own code (`sweep`); the tests' temporary folder.
#[path = "../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod fuzz_lib;
mod write_support;

mod aggregate_engine;
mod api;
mod arrow;
mod arrow_engine;
mod cli;
mod cli_damage;
mod consolidate_merge;
mod consolidated_footers;
mod crash_harness;
mod datatypes_engine;
mod delete_conditions;
mod docs_book;
mod docs_cli_reference;
mod facade_arrow;
mod facade_conditions;
mod facade_time_travel;
mod filters_engine;
mod filters_reencode;
mod format_v23;
#[cfg(feature = "ballista")]
mod i22_ballista;
mod i22_cli;
mod i22_concurrent_create;
mod i22_consolidate_deletes;
mod i22_dense_current_domain;
mod i22_drop_deleted;
mod i22_duplicates;
mod i22_far_future;
mod i22_updates;
mod inspect_human;
mod interop;
mod layers;
mod listing_races;
mod maintain_commands;
mod maintain_delete;
mod maintain_evolve;
mod maintain_fragments;
mod maintain_group_meta;
mod maintain_meta;
mod maintain_races;
mod maintain_reclaim;
mod object_store;
mod object_store_races;
mod object_store_reclaim;
mod object_store_stall;
mod old_layouts;
mod old_versions;
mod python_package;
mod query_condition_engine;
mod query_engine;
mod read_engine;
mod read_into;
mod read_plan;
mod round_trip;
mod snapshots;
mod sparse_merge;
mod spec_all_tables;
mod spec_errors;
mod spec_records;
mod spec_tables;
mod sql;
mod sql_memory;
mod sql_pruning;
mod sql_stats;
mod sql_writes;
mod sweep;
mod timestamped_names;
mod webp;
mod write_array_metadata;
mod write_crash;
mod write_encrypted;
mod write_fixtures;
mod write_import;
mod write_metadata_engine;
mod write_parallel;
mod write_proptest;
mod write_schema;
mod write_versions;
