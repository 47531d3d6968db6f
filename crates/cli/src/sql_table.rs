//! The `table` format of `sql`, printed as the rows come.
//!
//! A result can be larger than memory, so the table is never held whole:
//! the columns are as wide as the header and the first rows (up to
//! [`SIZING_ROWS`]) need, and a later batch with a wider value widens its
//! column from there on, under a rule line that shows where. What is held
//! is the text of one batch (and of the first rows, before the header).
//! Values are escaped as all human text is (`out`), so a line break in a
//! string cannot break the table.

use std::io::Write;

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::Schema;
use datafusion::arrow::util::display::{ArrayFormatter, FormatOptions};
use tiledb_codec_cli::summary::escape_controls;

/// The rows held to size the columns before the header is printed.
pub const SIZING_ROWS: usize = 1000;

pub struct TableWriter<W: Write> {
    out: W,
    header: Vec<String>,
    widths: Vec<usize>,
    /// The first rows, until there are enough to size the columns.
    pending: Vec<Vec<String>>,
    started: bool,
    rows: u64,
}

fn width(s: &str) -> usize {
    s.chars().count()
}

fn io(e: std::io::Error) -> String {
    format!("writing the result: {e}")
}

impl<W: Write> TableWriter<W> {
    pub fn new(out: W, schema: &Schema) -> Self {
        let header: Vec<String> = schema
            .fields()
            .iter()
            .map(|f| escape_controls(f.name()).into_owned())
            .collect();
        let widths = header.iter().map(|h| width(h)).collect();
        TableWriter {
            out,
            header,
            widths,
            pending: Vec::new(),
            started: false,
            rows: 0,
        }
    }

    /// Prints (or, before the header, holds) the rows of `batch`.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), String> {
        let options = FormatOptions::default().with_display_error(true);
        let columns = batch
            .columns()
            .iter()
            .map(|c| ArrayFormatter::try_new(c.as_ref(), &options))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())?;
        let rows: Vec<Vec<String>> = (0..batch.num_rows())
            .map(|i| {
                columns
                    .iter()
                    .map(|c| escape_controls(&c.value(i).to_string()).into_owned())
                    .collect()
            })
            .collect();
        self.rows += rows.len() as u64;
        if self.started {
            return self.print(&rows);
        }
        self.pending.extend(rows);
        if self.pending.len() >= SIZING_ROWS {
            self.start()?;
        }
        Ok(())
    }

    /// The header, sized by it and the rows held, then those rows.
    fn start(&mut self) -> Result<(), String> {
        self.started = true;
        let held = std::mem::take(&mut self.pending);
        self.widen(&held);
        self.rule()?;
        let header = std::mem::take(&mut self.header);
        self.row(&header)?;
        self.rule()?;
        for r in &held {
            self.row(r)?;
        }
        Ok(())
    }

    /// Rows after the header: a rule first where they widen a column.
    fn print(&mut self, rows: &[Vec<String>]) -> Result<(), String> {
        if self.widen(rows) {
            self.rule()?;
        }
        for r in rows {
            self.row(r)?;
        }
        Ok(())
    }

    /// Widens the columns to fit `rows`; whether any grew.
    fn widen(&mut self, rows: &[Vec<String>]) -> bool {
        let mut grew = false;
        for r in rows {
            for (w, cell) in self.widths.iter_mut().zip(r) {
                let n = width(cell);
                if n > *w {
                    *w = n;
                    grew = true;
                }
            }
        }
        grew
    }

    fn rule(&mut self) -> Result<(), String> {
        let mut line = String::from("+");
        for w in &self.widths {
            line.extend(std::iter::repeat_n('-', w + 2));
            line.push('+');
        }
        writeln!(self.out, "{line}").map_err(io)
    }

    fn row(&mut self, cells: &[String]) -> Result<(), String> {
        let mut line = String::from("|");
        for (cell, w) in cells.iter().zip(&self.widths) {
            line.push(' ');
            line.push_str(cell);
            line.extend(std::iter::repeat_n(' ', w - width(cell)));
            line.push_str(" |");
        }
        writeln!(self.out, "{line}").map_err(io)
    }

    /// The bottom rule and the count of rows.
    pub fn finish(mut self) -> Result<W, String> {
        let n = self.rows;
        if !self.started {
            self.start()?;
        }
        // An empty result ends with its header's rule.
        if n > 0 {
            self.rule()?;
        }
        writeln!(self.out, "{n} row{}", if n == 1 { "" } else { "s" }).map_err(io)?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use datafusion::arrow::array::{ArrayRef, Int64Array, StringArray};
    use std::sync::Arc;

    fn batch(n: &[i64], s: &[Option<&str>]) -> RecordBatch {
        RecordBatch::try_from_iter([
            ("n", Arc::new(Int64Array::from(n.to_vec())) as ArrayRef),
            ("text", Arc::new(StringArray::from(s.to_vec())) as ArrayRef),
        ])
        .unwrap()
    }

    #[test]
    fn rows_print_as_they_come_and_wider_values_widen_the_columns() {
        let first = batch(&[1, 22], &[Some("a"), None]);
        let mut t = TableWriter::new(Vec::new(), &first.schema());
        t.write(&first).unwrap();
        // Enough rows to print the header, then a wider value.
        let many: Vec<i64> = vec![3; SIZING_ROWS];
        let texts: Vec<Option<&str>> = vec![Some("b"); SIZING_ROWS];
        t.write(&batch(&many, &texts)).unwrap();
        t.write(&batch(&[123456], &[Some("line\nbreak")])).unwrap();
        let text = String::from_utf8(t.finish().unwrap()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[..5],
            [
                "+----+------+",
                "| n  | text |",
                "+----+------+",
                "| 1  | a    |",
                "| 22 |      |"
            ]
        );
        let n = lines.len();
        assert_eq!(
            lines[n - 5..],
            [
                "| 3  | b    |",
                "+--------+---------------+",
                "| 123456 | line\\x0abreak |",
                "+--------+---------------+",
                "1003 rows"
            ]
        );
    }

    #[test]
    fn an_empty_result_still_has_its_header() {
        let b = batch(&[], &[]);
        let t = TableWriter::new(Vec::new(), &b.schema());
        let text = String::from_utf8(t.finish().unwrap()).unwrap();
        assert_eq!(text, "+---+------+\n| n | text |\n+---+------+\n0 rows\n");
    }
}
