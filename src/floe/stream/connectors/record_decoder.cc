#include "floe/stream/connectors/record_decoder.h"

#include <array>
#include <regex>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/batch/filter.h"
#include "floe/format/text/csv_reader.h"
#include "floe/stream/connectors/avro_record_decoder_internal.h"
#include "floe/stream/connectors/text_rows_internal.h"
#include "floe/util/json.h"

namespace floe::stream {
namespace {

constexpr std::array kFormats = {"json", "csv", "raw", "avro", "debezium-json", "canal-json"};

// The options of one format: those under "<format>.", checked against what it knows.
class FormatOptions {
 public:
  FormatOptions(std::string_view format, const std::map<std::string, std::string>& options)
      : format_(format) {
    std::string prefix = std::string(format) + ".";
    for (const auto& [key, value] : options) {
      if (key.starts_with(prefix)) own_[key.substr(prefix.size())] = value;
    }
  }

  Result<bool> Bool(const std::string& name, bool fallback) {
    auto found = own_.find(name);
    if (found == own_.end()) return fallback;
    std::string value = found->second;
    own_.erase(found);
    if (value == "true") return true;
    if (value == "false") return false;
    return InvalidArgument("format option '{}.{}': '{}' is not true or false", format_, name,
                           value);
  }

  Result<std::string> Text(const std::string& name, std::string fallback) {
    auto found = own_.find(name);
    if (found == own_.end()) return fallback;
    std::string value = found->second;
    own_.erase(found);
    return value;
  }

  // A regular expression (ECMAScript), nullopt when not set. It is matched against names in the
  // records, which come from outside: libstdc++'s default matcher recurses once per character and
  // overflows the stack on a long name, so it is compiled for the breadth-first matcher
  // (__polynomial, libstdc++'s extension), whose depth does not grow with the input. That matcher
  // has no back-references: a pattern with one is refused here.
  Result<std::optional<std::regex>> Pattern(const std::string& name) {
    FLOE_ASSIGN_OR_RETURN(std::string text, Text(name, ""));
    if (text.empty()) return std::optional<std::regex>();
    try {
      return std::optional<std::regex>(
          std::regex(text, std::regex::ECMAScript | std::regex_constants::__polynomial));
    } catch (const std::regex_error& error) {
      return InvalidArgument("format option '{}.{}': '{}' is not a regular expression: {}", format_,
                             name, text, error.what());
    }
  }

  Status TimestampStandard(const std::string& name) {
    FLOE_ASSIGN_OR_RETURN(std::string standard, Text(name, "SQL"));
    if (standard != "SQL" && standard != "ISO-8601") {
      return InvalidArgument("format option '{}.{}': '{}' is not SQL or ISO-8601", format_, name,
                             standard);
    }
    return Ok();
  }

  // Every option taken: any left is unknown.
  Status Done() const {
    if (own_.empty()) return Ok();
    return InvalidArgument("format '{}': unknown option '{}.{}'", format_, format_,
                           own_.begin()->first);
  }

 private:
  std::string format_;
  std::map<std::string, std::string> own_;
};

// Shared by the text formats: rows of cells, and what to do with a record that fails.
class TextRecordDecoder : public RecordDecoder {
 public:
  TextRecordDecoder(TextBatchBuilder builder, bool ignore_errors)
      : builder_(std::move(builder)), ignore_errors_(ignore_errors) {}

  Status AppendNulls(RowKind kind) override {
    nulls_.resize(static_cast<size_t>(builder_.num_columns()));
    return builder_.Add(nulls_, kind);
  }

  int64_t decoded_rows() const override { return builder_.kept(); }
  Result<std::optional<RecordBatch>> FinishDecoded() override { return builder_.Finish(); }

 protected:
  // A record that fails: skipped and counted, or the error.
  Status Failed(Status status) {
    if (!ignore_errors_) return status;
    ++skipped_;
    return Ok();
  }

  TextBatchBuilder builder_;
  bool ignore_errors_;
  JsonParser parser_;  // for the JSON formats: one for all their records

 private:
  std::vector<std::string_view> nulls_;
};

class JsonDecoder : public TextRecordDecoder {
 public:
  JsonDecoder(TextBatchBuilder builder, bool ignore_errors, bool fail_on_missing)
      : TextRecordDecoder(std::move(builder), ignore_errors), fail_on_missing_(fail_on_missing) {}

  Status Decode(std::optional<std::string_view> record) override {
    if (!record) return Ok();
    // The members go straight to the cells: no document is built.
    JsonCells row(builder_.schema(), fail_on_missing_, text_, cells_);
    Status cells = parser_.ForEachMember(
        *record, [&row](std::string_view key, const Json& value) { return row.Add(key, value); });
    if (cells) cells = row.Finish();
    if (!cells) return Failed(InvalidArgument("{}", cells.error().message()));
    Status added = builder_.Add(cells_);
    return added ? added : Failed(added);
  }

 private:
  bool fail_on_missing_;
  std::vector<std::string> text_;
  std::vector<std::string_view> cells_;
};

class CsvDecoder : public TextRecordDecoder {
 public:
  CsvDecoder(TextBatchBuilder builder, bool ignore_errors, char delimiter)
      : TextRecordDecoder(std::move(builder), ignore_errors), delimiter_(delimiter) {}

  Status Decode(std::optional<std::string_view> record) override {
    if (!record) return Ok();
    std::string_view line = *record;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    Status split = text::SplitCsvRecord(line, delimiter_, cells_, unquoted_);
    if (!split) return Failed(split);
    if (std::ssize(cells_) != builder_.num_columns()) {
      return Failed(InvalidArgument("{} fields, the schema has {} columns", cells_.size(),
                                    builder_.num_columns()));
    }
    for (auto& cell : cells_) {
      if (cell.empty()) cell = {};
    }
    Status added = builder_.Add(cells_);
    return added ? added : Failed(added);
  }

 private:
  char delimiter_;
  std::vector<std::string_view> cells_;
  std::string unquoted_;
};

// {"before": {...} | null, "after": {...} | null, "op": "c" | "r" | "u" | "d", ...}.
class DebeziumDecoder : public TextRecordDecoder {
 public:
  DebeziumDecoder(TextBatchBuilder builder, bool ignore_errors, bool schema_include)
      : TextRecordDecoder(std::move(builder), ignore_errors), schema_include_(schema_include) {}

  Status Decode(std::optional<std::string_view> record) override {
    if (!record) return Ok();
    auto json = parser_.Parse(*record);
    if (!json) return Failed(InvalidArgument("{}", json.error().message()));
    const Json* event = &*json;
    if (schema_include_) {
      event = json->Find("payload");
      if (event == nullptr) {
        return Failed(
            InvalidArgument("no \"payload\" member (debezium-json.schema-include is true)"));
      }
    }
    if (!event->is_object()) return Failed(InvalidArgument("not a JSON object"));
    const Json* op = event->Find("op");
    if (op == nullptr || !op->is_string()) {
      return Failed(InvalidArgument("no \"op\" string: not a Debezium change event"));
    }
    const std::string& code = op->as_string();
    if (code == "c" || code == "r") return Single(*event, "after", RowKind::kInsert);
    if (code == "d") return Single(*event, "before", RowKind::kDelete);
    if (code != "u") {
      return Failed(InvalidArgument("unknown Debezium operation \"op\": \"{}\"", code));
    }
    // An update is both rows or neither.
    const int64_t before_row = builder_.rows();
    FLOE_ASSIGN_OR_RETURN(bool before, Row(*event, "before", RowKind::kUpdateBefore));
    if (!before) return Ok();
    FLOE_ASSIGN_OR_RETURN(bool after, Row(*event, "after", RowKind::kUpdateAfter));
    if (!after) builder_.LeaveOut(before_row);
    return Ok();
  }

 private:
  Status Single(const Json& event, const char* image, RowKind kind) {
    FLOE_ASSIGN_OR_RETURN(bool added, Row(event, image, kind));
    (void)added;
    return Ok();
  }

  // Adds the row of one image ("before" or "after"), which must be an object: true when added,
  // false when it failed and was skipped.
  Result<bool> Row(const Json& event, const char* image, RowKind kind) {
    const Json* row = event.Find(image);
    Status status;
    if (row == nullptr || !row->is_object()) {
      status = InvalidArgument(
          "\"{}\" is not an object (an update or a delete needs the old row: REPLICA IDENTITY "
          "FULL)",
          image);
    } else {
      status = JsonObjectCells(*row, builder_.schema(), false, text_, cells_);
      if (status) status = builder_.Add(cells_, kind);
      if (!status) status = InvalidArgument("\"{}\": {}", image, status.error().message());
    }
    if (status) return true;
    FLOE_RETURN_IF_ERROR(Failed(std::move(status)));
    return false;
  }

  bool schema_include_;
  std::vector<std::string> text_;
  std::vector<std::string_view> cells_;
};

// {"data": [{...}, ...], "old": [{...}, ...] | null, "type": "INSERT" | "UPDATE" | "DELETE",
// "database": ..., "table": ..., ...}: one row (or, for an update, a -U/+U pair) per data item.
// An update's "old" item holds only the members that changed; the others are as in "data".
class CanalDecoder : public TextRecordDecoder {
 public:
  CanalDecoder(TextBatchBuilder builder, bool ignore_errors, std::optional<std::regex> database,
               std::optional<std::regex> table)
      : TextRecordDecoder(std::move(builder), ignore_errors),
        database_(std::move(database)),
        table_(std::move(table)) {}

  Status Decode(std::optional<std::string_view> record) override {
    if (!record) return Ok();
    auto json = parser_.Parse(*record);
    if (!json) return Failed(InvalidArgument("{}", json.error().message()));
    if (!json->is_object()) return Failed(InvalidArgument("not a JSON object"));
    const Json* type = json->Find("type");
    if (type == nullptr || !type->is_string()) {
      return Failed(InvalidArgument("no \"type\" string: not a Canal change event"));
    }
    if (!Included(*json, "database", database_) || !Included(*json, "table", table_)) {
      return Ok();
    }
    const std::string& code = type->as_string();
    // Schema changes carry no rows.
    const Json* ddl = json->Find("isDdl");
    if (code == "CREATE" || (ddl != nullptr && ddl->is_bool() && ddl->as_bool())) return Ok();
    RowKind kind;
    if (code == "INSERT") {
      kind = RowKind::kInsert;
    } else if (code == "DELETE") {
      kind = RowKind::kDelete;
    } else if (code == "UPDATE") {
      kind = RowKind::kUpdateAfter;
    } else {
      return Failed(InvalidArgument("unknown Canal operation \"type\": \"{}\"", code));
    }
    const Json* data = json->Find("data");
    if (data == nullptr || !data->is_array()) {
      return Failed(InvalidArgument("\"data\" is not an array of rows"));
    }
    const Json* old = json->Find("old");
    if (kind == RowKind::kUpdateAfter &&
        (old == nullptr || !old->is_array() || old->as_array().size() != data->as_array().size())) {
      return Failed(
          InvalidArgument("an UPDATE needs \"old\": an array with one item per item of \"data\""));
    }
    // The rows of one record are all added or none.
    const int64_t first = builder_.rows();
    for (size_t i = 0; i < data->as_array().size(); ++i) {
      const Json& row = data->as_array()[i];
      Status added;
      if (kind == RowKind::kUpdateAfter) {
        added = Before(row, old->as_array()[i]);
        if (added) added = Add(row, "data", RowKind::kUpdateAfter);
      } else {
        added = Add(row, "data", kind);
      }
      if (!added) {
        for (int64_t r = first; r < builder_.rows(); ++r) builder_.LeaveOut(r);
        return Failed(std::move(added));
      }
    }
    return Ok();
  }

 private:
  static bool Included(const Json& event, const char* member,
                       const std::optional<std::regex>& pattern) {
    if (!pattern) return true;
    const Json* name = event.Find(member);
    return name != nullptr && name->is_string() && std::regex_match(name->as_string(), *pattern);
  }

  // The row before an update: the "data" item with the "old" item's members in place of its own.
  Status Before(const Json& row, const Json& old) {
    if (!row.is_object() || !old.is_object()) {
      return InvalidArgument("an item of \"data\" or \"old\" is not an object");
    }
    Json before = row;
    for (const auto& [name, value] : old.as_object()) before.Set(name, value);
    return Add(before, "old", RowKind::kUpdateBefore);
  }

  Status Add(const Json& row, const char* member, RowKind kind) {
    Status status = row.is_object() ? JsonObjectCells(row, builder_.schema(), false, text_, cells_)
                                    : InvalidArgument("not an object");
    if (status) status = builder_.Add(cells_, kind);
    if (!status) return InvalidArgument("\"{}\": {}", member, status.error().message());
    return Ok();
  }

  std::optional<std::regex> database_;
  std::optional<std::regex> table_;
  std::vector<std::string> text_;
  std::vector<std::string_view> cells_;
};

// The record as the table's one column.
class RawDecoder : public RecordDecoder {
 public:
  explicit RawDecoder(BatchSchemaPtr schema)
      : schema_(std::move(schema)), builder_(schema_->field(0).type) {}

  Status Decode(std::optional<std::string_view> record) override {
    if (!record) return AppendNulls(RowKind::kInsert);
    builder_.Append(*record);
    kinds_.push_back(static_cast<uint8_t>(RowKind::kInsert));
    ++rows_;
    return Ok();
  }

  Status AppendNulls(RowKind kind) override {
    if (!schema_->field(0).nullable) {
      return InvalidArgument("a null record, but column {} is not nullable",
                             schema_->field(0).name);
    }
    builder_.AppendNull();
    kinds_.push_back(static_cast<uint8_t>(kind));
    any_change_ |= kind != RowKind::kInsert;
    ++rows_;
    return Ok();
  }

  int64_t decoded_rows() const override { return rows_; }

  Result<std::optional<RecordBatch>> FinishDecoded() override {
    if (rows_ == 0) return std::optional<RecordBatch>();
    FLOE_ASSIGN_OR_RETURN(Array column, builder_.Finish());
    std::vector<Array> columns;
    columns.push_back(std::move(column));
    std::optional<Buffer> kinds;
    if (any_change_) kinds = Buffer::CopyOf(kinds_.data(), std::ssize(kinds_));
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch,
                          RecordBatch::Make(schema_, std::move(columns), rows_, std::move(kinds)));
    rows_ = 0;
    kinds_.clear();
    any_change_ = false;
    return std::optional<RecordBatch>(std::move(batch));
  }

 private:
  BatchSchemaPtr schema_;
  StringBuilder builder_;
  std::vector<uint8_t> kinds_;
  bool any_change_ = false;
  int64_t rows_ = 0;
};

}  // namespace

void RecordDecoder::LeaveOutFrom(int64_t row) {
  keep_.resize(static_cast<size_t>(decoded_rows()), 1);
  int64_t count = rows() - row;
  for (size_t r = keep_.size(); count > 0 && r > 0; --r) {
    if (keep_[r - 1] == 0) continue;
    keep_[r - 1] = 0;
    ++left_out_;
    --count;
  }
}

Result<std::optional<RecordBatch>> RecordDecoder::Finish() {
  FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, FinishDecoded());
  if (left_out_ == 0 || !batch) {
    keep_.clear();
    left_out_ = 0;
    return batch;
  }
  keep_.resize(static_cast<size_t>(batch->num_rows()), 1);
  FLOE_ASSIGN_OR_RETURN(RecordBatch kept, FilterBatch(*batch, keep_));
  keep_.clear();
  left_out_ = 0;
  if (kept.num_rows() == 0) return std::optional<RecordBatch>();
  return std::optional<RecordBatch>(std::move(kept));
}

bool RecordDecoder::IsFormat(std::string_view format) {
  return std::ranges::find(kFormats, format) != kFormats.end();
}

bool RecordDecoder::IsChangelogFormat(std::string_view format) {
  return format == "debezium-json" || format == "canal-json";
}

Result<std::unique_ptr<RecordDecoder>> RecordDecoder::Make(
    std::string_view format, BatchSchemaPtr schema,
    const std::map<std::string, std::string>& options, const std::vector<std::string>& not_null) {
  if (!IsFormat(format)) {
    return InvalidArgument("unknown format '{}' (json, csv, raw, avro, debezium-json, canal-json)",
                           format);
  }
  FormatOptions own(format, options);
  std::unique_ptr<RecordDecoder> decoder;
  if (format == "raw") {
    if (schema->num_fields() != 1 || !schema->field(0).type->is_binary_like() ||
        schema->field(0).type->is_large()) {
      return InvalidArgument("format 'raw' needs exactly one column, of type STRING or BYTES");
    }
    decoder = std::make_unique<RawDecoder>(std::move(schema));
  } else if (format == "avro") {
    FLOE_ASSIGN_OR_RETURN(bool ignore_errors, own.Bool("ignore-parse-errors", false));
    FLOE_ASSIGN_OR_RETURN(decoder, MakeAvroDecoder(std::move(schema), not_null, ignore_errors));
  } else {
    FLOE_ASSIGN_OR_RETURN(TextBatchBuilder builder, TextBatchBuilder::Make(std::move(schema)));
    FLOE_ASSIGN_OR_RETURN(bool ignore_errors, own.Bool("ignore-parse-errors", false));
    if (format == "json") {
      FLOE_ASSIGN_OR_RETURN(bool fail_on_missing, own.Bool("fail-on-missing-field", false));
      FLOE_RETURN_IF_ERROR(own.TimestampStandard("timestamp-format.standard"));
      if (ignore_errors && fail_on_missing) {
        return InvalidArgument(
            "format 'json': json.fail-on-missing-field and json.ignore-parse-errors cannot both "
            "be true");
      }
      decoder = std::make_unique<JsonDecoder>(std::move(builder), ignore_errors, fail_on_missing);
    } else if (format == "csv") {
      FLOE_ASSIGN_OR_RETURN(std::string delimiter, own.Text("field-delimiter", ","));
      if (delimiter.size() != 1 || delimiter[0] == '"' || delimiter[0] == '\n') {
        return InvalidArgument(
            "format option 'csv.field-delimiter': '{}' is not one character (other than a quote "
            "or a line end)",
            delimiter);
      }
      decoder = std::make_unique<CsvDecoder>(std::move(builder), ignore_errors, delimiter[0]);
    } else if (format == "canal-json") {
      FLOE_RETURN_IF_ERROR(own.TimestampStandard("timestamp-format.standard"));
      FLOE_ASSIGN_OR_RETURN(std::optional<std::regex> database, own.Pattern("database.include"));
      FLOE_ASSIGN_OR_RETURN(std::optional<std::regex> table, own.Pattern("table.include"));
      decoder = std::make_unique<CanalDecoder>(std::move(builder), ignore_errors,
                                               std::move(database), std::move(table));
    } else {
      FLOE_ASSIGN_OR_RETURN(bool schema_include, own.Bool("schema-include", false));
      FLOE_RETURN_IF_ERROR(own.TimestampStandard("timestamp-format.standard"));
      decoder =
          std::make_unique<DebeziumDecoder>(std::move(builder), ignore_errors, schema_include);
    }
  }
  FLOE_RETURN_IF_ERROR(own.Done());
  return decoder;
}

}  // namespace floe::stream
