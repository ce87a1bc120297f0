#pragma once

// Decoders of single records (the values of Kafka messages) into rows of a schema, one per format,
// knowing nothing of where the records come from:
//
//   json            a JSON object; members by column name (others ignored; absent or null: null)
//   csv             one CSV record; fields by column position; empty fields are nulls
//   raw             the record's bytes as the one column (string or binary); a null record: null
//   avro            the plain Avro binary encoding of a record of the columns, as Flink's avro
//                   format writes it (avro_record_decoder_internal.h says which types)
//   debezium-json   a Debezium change event {"before", "after", "op", ...} (or, with
//                   debezium-json.schema-include, the same under "payload"): op c and r give +I of
//                   "after", u gives -U of "before" and +U of "after", d gives -D of "before"
//   canal-json      a Canal change event {"data": [...], "old": [...], "type", "database",
//                   "table", ...}: per item of "data", INSERT gives +I, DELETE -D, UPDATE -U of
//                   the item with the members of its "old" item and +U of the item; CREATE and
//                   DDL events give no row
//
// Options (Flink's format options; each format takes only its own prefix):
//   json.ignore-parse-errors, json.fail-on-missing-field, json.timestamp-format.standard
//   csv.ignore-parse-errors, csv.field-delimiter
//   avro.ignore-parse-errors
//   debezium-json.ignore-parse-errors, debezium-json.schema-include,
//   debezium-json.timestamp-format.standard
//   canal-json.ignore-parse-errors, canal-json.timestamp-format.standard,
//   canal-json.database.include, canal-json.table.include (ECMAScript regular expressions without
//   back-references: events of other databases or tables give no row)
// Timestamps are read in both standards (SQL's space or ISO-8601's 'T'), so the timestamp-format
// options are checked (SQL or ISO-8601) but change nothing. Cells are parsed as text_columns.h
// says. A null record (a Kafka tombstone) gives no row, except for raw.
//
// Errors: Make fails with kInvalidArgument naming the option (unknown format or option, bad
// value, a column type with no text form, raw with other than one string or binary column).
// Decode fails with kInvalidArgument giving the reason (the caller says where the record is),
// unless the format ignores parse errors: then the record gives no row and skipped() counts it.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/util/error.h"

namespace floe::stream {

class RecordDecoder {
 public:
  virtual ~RecordDecoder() = default;

  // `options` are every option of the connector; those with the format's prefix are taken.
  // `not_null` names columns that are NOT NULL where the records were written though `schema`
  // lets them be null (a PRIMARY KEY's, as Flink declares them, whose deletes may still leave
  // them null): only the avro format's encoding depends on it.
  static Result<std::unique_ptr<RecordDecoder>> Make(
      std::string_view format, BatchSchemaPtr schema,
      const std::map<std::string, std::string>& options,
      const std::vector<std::string>& not_null = {});
  // The formats Make knows, and whether one produces changes (rows of any RowKind).
  static bool IsFormat(std::string_view format);
  static bool IsChangelogFormat(std::string_view format);

  // Appends the rows of one record (nullopt: a null record).
  virtual Status Decode(std::optional<std::string_view> record) = 0;
  // Appends one row of nulls of this kind: the value columns of an upsert-kafka delete, or the
  // key columns of a record without key. kInvalidArgument for a column that is not nullable.
  virtual Status AppendNulls(RowKind kind) = 0;
  // Rows decoded since the last Finish and not left out: the rows Finish gives.
  int64_t rows() const { return decoded_rows() - left_out_; }
  // Leaves the rows from `row` (counted as rows() counts) to the last out of the batch: the rows
  // of a record whose key, decoded by another decoder, failed.
  void LeaveOutFrom(int64_t row);
  // Records skipped for parse errors, in all.
  int64_t skipped() const { return skipped_; }
  // Counts one more record skipped (its key did not decode and its key format ignores errors).
  void CountSkipped() { ++skipped_; }
  // The rows decoded since the last Finish, nullopt when none.
  Result<std::optional<RecordBatch>> Finish();

 protected:
  // The rows decoded since the last FinishDecoded, and their batch.
  virtual int64_t decoded_rows() const = 0;
  virtual Result<std::optional<RecordBatch>> FinishDecoded() = 0;

  int64_t skipped_ = 0;

 private:
  std::vector<uint8_t> keep_;  // by decoded row, when some are left out
  int64_t left_out_ = 0;
};

}  // namespace floe::stream
