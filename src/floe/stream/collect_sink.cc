#include "floe/stream/collect_sink.h"

#include <utility>
#include <variant>

#include "floe/batch/value.h"

namespace floe::stream {
namespace {

void AppendText(const Value& value, std::string& out);

template <typename Items, typename AppendItem>
void AppendJoined(const Items& items, std::string_view open, std::string_view close,
                  AppendItem append, std::string& out) {
  out += open;
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += ", ";
    first = false;
    append(item);
  }
  out += close;
}

void AppendText(const Value& value, std::string& out) {
  const Value::Variant& v = value.variant();
  if (value.is_null()) {
    out += "null";
  } else if (const auto* text = std::get_if<std::string>(&v)) {
    out += *text;
  } else if (const auto* list = std::get_if<ListValue>(&v)) {
    AppendJoined(
        list->elements, "[", "]", [&](const Value& e) { AppendText(e, out); }, out);
  } else if (const auto* row = std::get_if<StructValue>(&v)) {
    AppendJoined(
        row->fields, "(", ")", [&](const auto& f) { AppendText(f.second, out); }, out);
  } else if (const auto* map = std::get_if<MapValue>(&v)) {
    AppendJoined(
        map->entries, "{", "}",
        [&](const auto& e) {
          AppendText(e.first, out);
          out += '=';
          AppendText(e.second, out);
        },
        out);
  } else {
    // Numbers as JSON writes them; dates, times, decimals and bytes without JSON's quotes.
    std::string json = value.ToJson();
    if (json.size() >= 2 && json.front() == '"' && json.back() == '"') {
      json = json.substr(1, json.size() - 2);
    }
    out += json;
  }
}

class CollectSink : public Operator {
 public:
  explicit CollectSink(std::shared_ptr<CollectedBatches> collected)
      : collected_(std::move(collected)) {}
  Status ProcessBatch(int, RecordBatch batch, Output&) override {
    collected_->Add(std::move(batch));
    return {};
  }

 private:
  std::shared_ptr<CollectedBatches> collected_;
};

class PrintSink : public Operator {
 public:
  explicit PrintSink(std::ostream& out) : out_(out) {}
  Status ProcessBatch(int, RecordBatch batch, Output&) override {
    std::string text;
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      text += FormatRow(batch, row);
      text += '\n';
    }
    out_ << text;
    out_.flush();
    if (!out_) return IOError("print sink: writing to the output stream failed");
    return {};
  }

 private:
  std::ostream& out_;
};

}  // namespace

std::string FormatRow(const RecordBatch& batch, int64_t row) {
  std::string out(RowKindSymbol(batch.row_kind(row)));
  out += '[';
  for (int c = 0; c < batch.num_columns(); ++c) {
    if (c > 0) out += ", ";
    AppendText(GetValue(batch.column(c), row), out);
  }
  out += ']';
  return out;
}

void CollectedBatches::Add(RecordBatch batch) {
  std::lock_guard lock(mutex_);
  num_rows_ += batch.num_rows();
  batches_.push_back(std::move(batch));
}

std::vector<RecordBatch> CollectedBatches::batches() const {
  std::lock_guard lock(mutex_);
  return batches_;
}

int64_t CollectedBatches::num_rows() const {
  std::lock_guard lock(mutex_);
  return num_rows_;
}

std::vector<std::string> CollectedBatches::RowLines() const {
  std::vector<std::string> lines;
  for (const RecordBatch& batch : batches()) {
    for (int64_t row = 0; row < batch.num_rows(); ++row) lines.push_back(FormatRow(batch, row));
  }
  return lines;
}

OperatorFactory CollectSinkFactory(std::shared_ptr<CollectedBatches> collected) {
  return [collected](int) -> Result<std::unique_ptr<Operator>> {
    return std::make_unique<CollectSink>(collected);
  };
}

void PrintTo(const DataStream& stream, std::string name, std::ostream& out) {
  stream.SinkTo(
      std::move(name),
      [&out](int) -> Result<std::unique_ptr<Operator>> { return std::make_unique<PrintSink>(out); },
      1);
}

}  // namespace floe::stream
