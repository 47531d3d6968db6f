//! Aggregates over the cells a query selects: `count(*)`, `count(a)`,
//! `sum`, `min`, `max`, `mean`, `null_count`, with the engine's result
//! types; tiles the query covers whole, with no overwrite, delete or
//! duplicate rule in play, answered from tile metadata.
