#include "floe/stream/iceberg/write_rows/destinations.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

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
  out.key_of_rows_ = [key](const RecordBatch& batch, std::vector<std::string>& keys) -> Status {
    keys.assign(static_cast<size_t>(batch.num_rows()), key);
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
  out.key_of_rows_ = [parts, pattern](const RecordBatch& batch,
                                      std::vector<std::string>& keys) -> Status {
    std::vector<Array> columns(parts.size());
    for (size_t p = 0; p < parts.size(); ++p) {
      if (parts[p].field) {
        FLOE_ASSIGN_OR_RETURN(columns[p], ResolvePath(batch, parts[p].text, pattern));
      }
    }
    keys.resize(static_cast<size_t>(batch.num_rows()));
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      std::string& key = keys[static_cast<size_t>(row)];
      key.clear();
      for (size_t p = 0; p < parts.size(); ++p) {
        if (!parts[p].field) {
          key.append(parts[p].text);
        } else if (columns[p].IsNull(row)) {
          return InvalidArgument("table template '{}': field '{}' is null in row {}", pattern,
                                 parts[p].text, row);
        } else {
          AppendText(columns[p], row, key);
        }
      }
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
  out.key_of_rows_ = std::move(key_of_rows);
  out.describe_ = std::move(describe);
  return out;
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
