#include "floe/cli/result_printer.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "floe/batch/value.h"
#include "floe/sql/scalar/result_format.h"

namespace floe::cli {

using sql::FormatCell;
using sql::JsonLine;
using sql::kNullText;
using sql::kRowTextNull;
using sql::ResultMode;

namespace {

constexpr std::string_view kRowKindColumn = "op";
constexpr std::string_view kTruncated = "...";

// Decodes the code point at text[i] and advances i; a malformed byte counts as one character.
char32_t NextCodePoint(std::string_view text, size_t& i) {
  auto byte = static_cast<unsigned char>(text[i]);
  int extra = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : byte >= 0xC0 ? 1 : 0;
  if (extra > 0 && i + extra >= text.size()) extra = 0;
  char32_t code = extra == 0 ? byte : byte & (0x3F >> extra);
  for (int k = 1; k <= extra; ++k) {
    code = (code << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
  }
  i += 1 + extra;
  return code;
}

// The blocks Unicode's East Asian Width property marks Wide (W) or Fullwidth (F).
bool IsFullWidth(char32_t c) {
  static constexpr std::pair<char32_t, char32_t> kWide[] = {
      {0x1100, 0x115F},   {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},
      {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},   {0xA960, 0xA97F},   {0xAC00, 0xD7A3},
      {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},
      {0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD},
      {0x30000, 0x3FFFD},
  };
  return std::ranges::any_of(kWide, [c](const auto& r) { return c >= r.first && c <= r.second; });
}

// The longest prefix of `text` at most `width` columns wide, padded on the left to exactly that.
std::string Truncate(std::string_view text, int width) {
  int passed = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t next = i;
    int w = IsFullWidth(NextCodePoint(text, next)) ? 2 : 1;
    if (passed + w > width) break;
    passed += w;
    i = next;
  }
  return std::string(static_cast<size_t>(std::max(0, width - passed)), ' ') +
         std::string(text.substr(0, i));
}

// The fraction of a TIME(p) or TIMESTAMP(p): a point and p digits, nothing for p = 0.
int FractionWidth(const DataType& type) { return type.precision() > 0 ? type.precision() + 1 : 0; }

int TypeWidth(const DataType& type, int max_column_width) {
  switch (type.kind()) {
    case TypeKind::kInt8:
      return 4;
    case TypeKind::kInt16:
      return 6;
    case TypeKind::kInt32:
      return 11;
    case TypeKind::kInt64:
      return 20;
    case TypeKind::kDecimal128:
      return type.precision() + 2;  // a sign and a point
    case TypeKind::kBool:
      return 5;
    case TypeKind::kDate32:
      return 10;
    case TypeKind::kTime64:
      return 8 + FractionWidth(type);  // 23:59:59.fff
    case TypeKind::kTimestamp:
      return 19 + FractionWidth(type);  // 2024-01-02 10:30:00.fff
    default:
      return max_column_width;
  }
}

std::string Plural(int64_t rows) { return rows > 1 ? "rows" : "row"; }

}  // namespace

int DisplayWidth(std::string_view text) {
  int width = 0;
  size_t i = 0;
  while (i < text.size()) width += IsFullWidth(NextCodePoint(text, i)) ? 2 : 1;
  return width;
}

std::vector<int> WidthsFromTypes(const BatchSchema& schema, int max_column_width, bool row_kind) {
  std::vector<int> widths;
  if (row_kind) widths.push_back(static_cast<int>(kRowKindColumn.size()));
  for (const Field& field : schema.fields()) {
    int width =
        std::max(TypeWidth(*field.type, max_column_width), static_cast<int>(kNullText.size()));
    widths.push_back(std::max(width, DisplayWidth(field.name)));
  }
  return widths;
}

ResultPrinter::ResultPrinter(std::FILE* out, BatchSchemaPtr schema, bool changelog,
                             PrintOptions options)
    : out_(out), schema_(std::move(schema)), changelog_(changelog), options_(options) {
  if (changelog_) names_.emplace_back(kRowKindColumn);
  for (const Field& field : schema_->fields()) names_.push_back(field.name);
}

void ResultPrinter::Begin() {
  if (options_.mode != ResultMode::kTableau || !changelog_) return;
  widths_ = WidthsFromTypes(*schema_, options_.max_column_width, true);
  PrintBorder(widths_);
  PrintCells(widths_, names_);
  PrintBorder(widths_);
  std::fflush(out_);
}

std::vector<std::string> ResultPrinter::RowCells(const RecordBatch& batch, int64_t row) const {
  std::vector<std::string> cells;
  if (changelog_) cells.emplace_back(RowKindSymbol(batch.row_kind(row)));
  for (int c = 0; c < batch.num_columns(); ++c) {
    cells.push_back(FormatCell(batch.column(c), row, *schema_->field(c).type));
  }
  return cells;
}

void ResultPrinter::Add(const RecordBatch& batch) {
  for (int64_t row = 0; row < batch.num_rows(); ++row) {
    ++rows_;
    switch (options_.mode) {
      case ResultMode::kTableau:
        if (Buffered()) {
          held_.push_back(RowCells(batch, row));
        } else {
          PrintCells(widths_, RowCells(batch, row));
        }
        break;
      case ResultMode::kChangelog: {
        std::string line(RowKindSymbol(batch.row_kind(row)));
        line += '[';
        for (int c = 0; c < batch.num_columns(); ++c) {
          if (c > 0) line += ", ";
          line += FormatCell(batch.column(c), row, *schema_->field(c).type, kRowTextNull);
        }
        line += "]\n";
        std::fputs(line.c_str(), out_);
        break;
      }
      case ResultMode::kJsonl: {
        std::string json = JsonLine(*schema_, batch, row, changelog_) + '\n';
        std::fputs(json.c_str(), out_);
        break;
      }
    }
  }
  std::fflush(out_);
}

void ResultPrinter::End(bool cancelled) {
  if (options_.mode != ResultMode::kTableau) return;
  if (cancelled) {
    fmt::print(out_, "Query terminated, received a total of {} {}\n", rows_, Plural(rows_));
  } else if (changelog_) {
    if (rows_ > 0) PrintBorder(widths_);
    fmt::print(out_, "Received a total of {} {}\n", rows_, Plural(rows_));
  } else if (held_.empty()) {
    std::fputs("Empty set\n", out_);
  } else {
    std::vector<int> widths;
    for (const auto& name : names_) widths.push_back(DisplayWidth(name));
    for (const auto& cells : held_) {
      for (size_t c = 0; c < cells.size(); ++c) {
        widths[c] = std::max(widths[c], DisplayWidth(cells[c]));
      }
    }
    for (int& width : widths) width = std::min(width, options_.max_column_width);
    PrintBorder(widths);
    PrintCells(widths, names_);
    PrintBorder(widths);
    for (const auto& cells : held_) PrintCells(widths, cells);
    PrintBorder(widths);
    fmt::print(out_, "{} {} in set\n", rows_, Plural(rows_));
    held_.clear();
  }
  std::fflush(out_);
}

void ResultPrinter::PrintBorder(const std::vector<int>& widths) {
  std::string line = "+";
  for (int width : widths) {
    line.append(static_cast<size_t>(width) + 2, '-');
    line += '+';
  }
  line += '\n';
  std::fputs(line.c_str(), out_);
}

void ResultPrinter::PrintCells(const std::vector<int>& widths,
                               const std::vector<std::string>& cells) {
  std::string line = "|";
  for (size_t c = 0; c < cells.size(); ++c) {
    line += ' ';
    int width = widths[c];
    int shown = DisplayWidth(cells[c]);
    if (shown <= width) {
      line.append(static_cast<size_t>(width - shown), ' ');
      line += cells[c];
    } else {
      line += Truncate(cells[c], width - static_cast<int>(kTruncated.size()));
      line += kTruncated;
    }
    line += " |";
  }
  line += '\n';
  std::fputs(line.c_str(), out_);
}

}  // namespace floe::cli
