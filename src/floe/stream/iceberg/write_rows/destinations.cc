#include "floe/stream/iceberg/write_rows/destinations.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <unordered_map>

#include "floe/batch/value.h"

namespace floe::stream {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// A template part: literal text, or the dotted path of a field.
struct Part {
  std::string text;
  bool field = false;
};

Result<std::vector<Part>> ParseTemplate(std::string_view pattern) {
  std::vector<Part> parts;
  size_t i = 0;
  while (i < pattern.size()) {
    const size_t open = pattern.find('{', i);
    if (open == std::string_view::npos) {
      parts.push_back({std::string(pattern.substr(i)), false});
      break;
    }
    if (open > i) parts.push_back({std::string(pattern.substr(i, open - i)), false});
    const size_t close = pattern.find('}', open);
    if (close == std::string_view::npos) {
      return InvalidArgument("table template '{}': '{{' at {} is not closed", pattern, open);
    }
    const std::string_view path = Trim(pattern.substr(open + 1, close - open - 1));
    if (path.empty()) {
      return InvalidArgument("table template '{}': empty field name at {}", pattern, open);
    }
    parts.push_back({std::string(path), true});
    i = close + 1;
  }
  return parts;
}

// The column of a dotted path in a batch: top-level name, then struct members.
Result<Array> ResolvePath(const RecordBatch& batch, const std::string& path,
                          std::string_view pattern) {
  size_t start = 0;
  const Array* column = nullptr;
  Array current;
  while (true) {
    const size_t dot = path.find('.', start);
    const std::string name = path.substr(start, dot == std::string::npos ? dot : dot - start);
    if (column == nullptr) {
      column = batch.GetColumnByName(name);
      if (column == nullptr) {
        return InvalidArgument("table template '{}': the rows have no field '{}' (columns: {})",
                               pattern, name, batch.schema()->ToString());
      }
      current = *column;
    } else {
      if (current.kind() != TypeKind::kStruct) {
        return InvalidArgument("table template '{}': '{}' is not a struct", pattern, path);
      }
      int index = -1;
      const auto& fields = current.type()->fields();
      for (size_t f = 0; f < fields.size(); ++f) {
        if (fields[f].name == name) index = static_cast<int>(f);
      }
      if (index < 0) {
        return InvalidArgument("table template '{}': the rows have no field '{}'", pattern, path);
      }
      // A null struct makes its members null: keep its validity by checking it per row below.
      Array member = current.field(index);
      if (current.null_count() != 0) {
        for (int64_t r = 0; r < current.length(); ++r) {
          if (current.IsNull(r)) {
            return InvalidArgument("table template '{}': field '{}' is null in row {}", pattern,
                                   path, r);
          }
        }
      }
      current = std::move(member);
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  switch (current.kind()) {
    case TypeKind::kStruct:
    case TypeKind::kList:
    case TypeKind::kMap:
      return InvalidArgument("table template '{}': field '{}' is a {}, not a primitive", pattern,
                             path, current.type()->ToString());
    default:
      return current;
  }
}

template <typename T>
void AppendInteger(T value, std::string& out) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), value);
  out.append(digits, end);
}

// Integer key values spanning fewer than this (or than the batch's rows) are grouped through a
// table indexed by value.
constexpr uint64_t kDirectRange = 4096;

bool IsInteger(TypeKind kind) {
  return kind == TypeKind::kInt8 || kind == TypeKind::kInt16 || kind == TypeKind::kInt32 ||
         kind == TypeKind::kInt64;
}

int64_t IntegerAt(const Array& column, int64_t row) {
  switch (column.kind()) {
    case TypeKind::kInt8:
      return column.Value<int8_t>(row);
    case TypeKind::kInt16:
      return column.Value<int16_t>(row);
    case TypeKind::kInt32:
      return column.Value<int32_t>(row);
    default:
      return column.Value<int64_t>(row);
  }
}

void AppendText(const Array& column, int64_t row, std::string& out) {
  // Integers (the usual key fields) by to_chars: the JSON path formats through fmt per row.
  switch (column.kind()) {
    case TypeKind::kString:
    case TypeKind::kLargeString:
      out.append(column.GetString(row));
      return;
    case TypeKind::kInt8:
      return AppendInteger(column.Value<int8_t>(row), out);
    case TypeKind::kInt16:
      return AppendInteger(column.Value<int16_t>(row), out);
    case TypeKind::kInt32:
      return AppendInteger(column.Value<int32_t>(row), out);
    case TypeKind::kInt64:
      return AppendInteger(column.Value<int64_t>(row), out);
    default: {
      std::string json;
      AppendJson(column, row, json);
      if (json.size() >= 2 && json.front() == '"' && json.back() == '"') {
        json = json.substr(1, json.size() - 2);
      }
      out.append(json);
    }
  }
}

Destination WithTable(const Destination& defaults, catalog::TableIdentifier table) {
  Destination destination = defaults;
  destination.table = std::move(table);
  return destination;
}

std::string DefaultPartitionName(const std::string& column, const Transform& transform) {
  switch (transform.kind()) {
    case Transform::Kind::kIdentity:
      return column;
    case Transform::Kind::kBucket:
      return column + "_bucket";
    case Transform::Kind::kTruncate:
      return column + "_trunc";
    case Transform::Kind::kYear:
      return column + "_year";
    case Transform::Kind::kMonth:
      return column + "_month";
    case Transform::Kind::kDay:
      return column + "_day";
    case Transform::Kind::kHour:
      return column + "_hour";
    default:
      return column + "_" + Lower(transform.ToString());
  }
}

Result<int32_t> ParsePositive(std::string_view text, std::string_view field) {
  text = Trim(text);
  int32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value <= 0) {
    return InvalidArgument("partition field '{}': '{}' is not a positive integer", field, text);
  }
  return value;
}

}  // namespace

DynamicDestinations DynamicDestinations::Fixed(catalog::TableIdentifier table,
                                               Destination defaults) {
  const std::string key = table.ToString();
  Destination destination = WithTable(defaults, std::move(table));
  DynamicDestinations out;
  out.group_rows_ = [key](const RecordBatch& batch, RowKeys& rows) -> Status {
    rows.keys.assign(1, key);
    rows.key_of_row.assign(static_cast<size_t>(batch.num_rows()), 0);
    return Ok();
  };
  out.describe_ = [destination](const std::string&) -> Result<Destination> { return destination; };
  return out;
}

Result<DynamicDestinations> DynamicDestinations::Template(std::string pattern,
                                                          Destination defaults) {
  FLOE_ASSIGN_OR_RETURN(std::vector<Part> parts, ParseTemplate(pattern));
  DynamicDestinations out;
  for (const Part& part : parts) {
    if (part.field) out.key_fields_.push_back(part.text);
  }
  out.group_rows_ = [parts, pattern](const RecordBatch& batch, RowKeys& rows) -> Status {
    std::vector<Array> columns(parts.size());
    std::vector<size_t> fields;
    for (size_t p = 0; p < parts.size(); ++p) {
      if (parts[p].field) {
        FLOE_ASSIGN_OR_RETURN(columns[p], ResolvePath(batch, parts[p].text, pattern));
        fields.push_back(p);
      }
    }
    const auto num_rows = static_cast<size_t>(batch.num_rows());
    rows.keys.clear();
    rows.key_of_row.resize(num_rows);
    for (size_t p : fields) {
      if (columns[p].null_count() == 0) continue;
      for (size_t row = 0; row < num_rows; ++row) {
        if (columns[p].IsNull(static_cast<int64_t>(row))) {
          return InvalidArgument("table template '{}': field '{}' is null in row {}", pattern,
                                 parts[p].text, row);
        }
      }
    }
    std::unordered_map<std::string, uint32_t> index_of_key;
    auto key_of = [&](int64_t row) -> uint32_t {
      std::string key;
      for (size_t p = 0; p < parts.size(); ++p) {
        if (parts[p].field) {
          AppendText(columns[p], row, key);
        } else {
          key.append(parts[p].text);
        }
      }
      auto [it, inserted] = index_of_key.try_emplace(key, static_cast<uint32_t>(rows.keys.size()));
      if (inserted) rows.keys.push_back(std::move(key));
      return it->second;
    };
    // Rows are told apart by the values of their key fields; a key's text is built once per
    // distinct value (two values may print alike, so texts are deduplicated too).
    if (fields.size() == 1 && IsInteger(columns[fields[0]].kind())) {
      const Array& column = columns[fields[0]];
      std::vector<int64_t> values(num_rows);
      for (size_t row = 0; row < num_rows; ++row) {
        values[row] = IntegerAt(column, static_cast<int64_t>(row));
      }
      const auto [min, max] = std::minmax_element(values.begin(), values.end());
      // A narrow range of values (table numbers, regions by id) indexes a table directly.
      if (num_rows > 0 && static_cast<uint64_t>(*max) - static_cast<uint64_t>(*min) <
                              std::max<uint64_t>(kDirectRange, num_rows)) {
        const int64_t base = *min;
        std::vector<uint32_t> index_of_value(
            static_cast<size_t>(static_cast<uint64_t>(*max) - static_cast<uint64_t>(base)) + 1,
            UINT32_MAX);
        for (size_t row = 0; row < num_rows; ++row) {
          uint32_t& index = index_of_value[static_cast<size_t>(static_cast<uint64_t>(values[row]) -
                                                               static_cast<uint64_t>(base))];
          if (index == UINT32_MAX) index = key_of(static_cast<int64_t>(row));
          rows.key_of_row[row] = index;
        }
        return Ok();
      }
      std::unordered_map<int64_t, uint32_t> index_of_value;
      for (size_t row = 0; row < num_rows; ++row) {
        auto [it, inserted] = index_of_value.try_emplace(values[row], 0);
        if (inserted) it->second = key_of(static_cast<int64_t>(row));
        rows.key_of_row[row] = it->second;
      }
      return Ok();
    }
    std::unordered_map<std::string, uint32_t> index_of_values;
    std::string values;
    for (size_t row = 0; row < num_rows; ++row) {
      values.clear();
      for (size_t p : fields) {
        const size_t start = values.size();
        values.append(sizeof(uint32_t), '\0');
        AppendText(columns[p], static_cast<int64_t>(row), values);
        const auto length = static_cast<uint32_t>(values.size() - start - sizeof(uint32_t));
        std::memcpy(values.data() + start, &length, sizeof(length));
      }
      auto [it, inserted] = index_of_values.try_emplace(values, 0);
      if (inserted) it->second = key_of(static_cast<int64_t>(row));
      rows.key_of_row[row] = it->second;
    }
    return Ok();
  };
  out.describe_ = [defaults](const std::string& key) -> Result<Destination> {
    auto table = catalog::TableIdentifier::Parse(key);
    if (!table) {
      return InvalidArgument("destination '{}' is not a table identifier: {}", key,
                             table.error().message());
    }
    return WithTable(defaults, std::move(*table));
  };
  return out;
}

DynamicDestinations DynamicDestinations::Custom(KeyOfRows key_of_rows, Describer describe) {
  DynamicDestinations out;
  out.group_rows_ = [key_of_rows = std::move(key_of_rows)](const RecordBatch& batch,
                                                           RowKeys& rows) -> Status {
    std::vector<std::string> keys;
    FLOE_RETURN_IF_ERROR(key_of_rows(batch, keys));
    if (keys.size() != static_cast<size_t>(batch.num_rows())) {
      return InvalidArgument("dynamic destinations gave {} keys for {} rows", keys.size(),
                             batch.num_rows());
    }
    rows.keys.clear();
    rows.key_of_row.resize(keys.size());
    std::unordered_map<std::string_view, uint32_t> index_of_key;
    for (size_t row = 0; row < keys.size(); ++row) {
      auto [it, inserted] =
          index_of_key.try_emplace(keys[row], static_cast<uint32_t>(index_of_key.size()));
      if (inserted) rows.keys.push_back(keys[row]);
      rows.key_of_row[row] = it->second;
    }
    return Ok();
  };
  out.describe_ = std::move(describe);
  return out;
}

Status DynamicDestinations::KeysOf(const RecordBatch& batch, std::vector<std::string>& keys) const {
  RowKeys rows;
  FLOE_RETURN_IF_ERROR(group_rows_(batch, rows));
  keys.resize(rows.key_of_row.size());
  for (size_t row = 0; row < keys.size(); ++row) keys[row] = rows.keys[rows.key_of_row[row]];
  return Ok();
}

Result<PartitionField> ParsePartitionField(std::string_view text, const Schema& schema,
                                           int32_t field_id) {
  const std::string_view term = Trim(text);
  std::string column;
  Transform transform = Transform::Identity();
  const size_t open = term.find('(');
  if (open == std::string_view::npos) {
    column = std::string(term);
  } else {
    if (term.back() != ')') {
      return InvalidArgument("partition field '{}': expected name(column[, n])", text);
    }
    const std::string name = Lower(Trim(term.substr(0, open)));
    const std::string_view args = term.substr(open + 1, term.size() - open - 2);
    const size_t comma = args.find(',');
    column = std::string(Trim(args.substr(0, comma)));
    const bool has_param = comma != std::string_view::npos;
    if (name == "bucket" || name == "truncate") {
      if (!has_param) {
        return InvalidArgument("partition field '{}': {} needs (column, n)", text, name);
      }
      FLOE_ASSIGN_OR_RETURN(int32_t n, ParsePositive(args.substr(comma + 1), text));
      transform = name == "bucket" ? Transform::Bucket(n) : Transform::Truncate(n);
    } else if (has_param) {
      return InvalidArgument("partition field '{}': {} takes one column", text, name);
    } else if (name == "year" || name == "years") {
      transform = Transform::Year();
    } else if (name == "month" || name == "months") {
      transform = Transform::Month();
    } else if (name == "day" || name == "days") {
      transform = Transform::Day();
    } else if (name == "hour" || name == "hours") {
      transform = Transform::Hour();
    } else if (name == "identity") {
      transform = Transform::Identity();
    } else {
      return InvalidArgument(
          "partition field '{}': unknown transform '{}' (identity, bucket, truncate, year, month, "
          "day, hour)",
          text, name);
    }
  }
  const NestedField* source = schema.FindField(column);
  if (source == nullptr) {
    return InvalidArgument("partition field '{}': no column '{}' in the table", text, column);
  }
  return PartitionField{.source_ids = {source->id},
                        .field_id = field_id,
                        .name = DefaultPartitionName(column, transform),
                        .transform = transform};
}

Result<PartitionSpecPtr> ParsePartitionFields(const std::vector<std::string>& fields,
                                              const Schema& schema) {
  if (fields.empty()) return PartitionSpec::Unpartitioned();
  std::vector<PartitionField> parsed;
  int32_t next_id = PartitionSpec::kFirstFieldId;
  for (const std::string& text : fields) {
    FLOE_ASSIGN_OR_RETURN(PartitionField field, ParsePartitionField(text, schema, next_id++));
    parsed.push_back(std::move(field));
  }
  return PartitionSpec::Make(schema, PartitionSpec::kInitialSpecId, std::move(parsed));
}

Result<SortOrderPtr> ParseSortFields(const std::vector<std::string>& fields, const Schema& schema) {
  if (fields.empty()) return SortOrder::Unsorted();
  std::vector<SortField> parsed;
  for (const std::string& text : fields) {
    std::vector<std::string> words;
    std::string_view rest = Trim(text);
    while (!rest.empty()) {
      const size_t space = rest.find(' ');
      words.push_back(std::string(rest.substr(0, space)));
      rest = space == std::string_view::npos ? std::string_view() : Trim(rest.substr(space));
    }
    if (words.empty() || words.size() > 4) {
      return InvalidArgument("sort field '{}': expected 'column [asc|desc] [nulls first|last]'",
                             text);
    }
    const NestedField* source = schema.FindField(words[0]);
    if (source == nullptr) {
      return InvalidArgument("sort field '{}': no column '{}' in the table", text, words[0]);
    }
    SortField field{.transform = Transform::Identity(), .source_ids = {source->id}};
    size_t next = 1;
    if (next < words.size() && Lower(words[next]) != "nulls") {
      FLOE_ASSIGN_OR_RETURN(field.direction, ParseSortDirection(Lower(words[next])));
      ++next;
    }
    field.null_order =
        field.direction == SortDirection::kAsc ? NullOrder::kNullsFirst : NullOrder::kNullsLast;
    if (next < words.size()) {
      if (next + 2 != words.size() || Lower(words[next]) != "nulls") {
        return InvalidArgument("sort field '{}': expected 'nulls first' or 'nulls last'", text);
      }
      FLOE_ASSIGN_OR_RETURN(field.null_order, ParseNullOrder("nulls-" + Lower(words[next + 1])));
    }
    parsed.push_back(std::move(field));
  }
  return SortOrder::Make(schema, SortOrder::kInitialOrderId, std::move(parsed));
}

}  // namespace floe::stream
