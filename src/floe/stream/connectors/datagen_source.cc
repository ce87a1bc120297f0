#include "floe/stream/connectors/datagen_source.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <limits>

#include "floe/batch/builder.h"
#include "floe/spec/literal_text.h"
#include "floe/util/xxhash64.h"

namespace floe::stream {
namespace {

constexpr std::string_view kFieldsPrefix = "fields.";
constexpr std::string_view kStatePrefix = "datagen:";
constexpr int64_t kMaxStringLength = 1 << 20;

// SplitMix64's finalizer: a bijection whose outputs for consecutive inputs look independent.
uint64_t Mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15u;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

// A uniform value in [0, range) from 64 random bits (Lemire's multiply-shift; range 0 means 2^64).
uint64_t Below(uint64_t bits, uint64_t range) {
  if (range == 0) return bits;
  return static_cast<uint64_t>((static_cast<unsigned __int128>(bits) * range) >> 64);
}

template <typename T>
Result<T> ParseNumber(std::string_view key, std::string_view text) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return InvalidArgument("datagen option '{}': '{}' is not a number", key, text);
  }
  return value;
}

// 64-bit integer options of a field: numbers, or ISO-8601 text for timestamps and dates.
Result<int64_t> ParseFieldInteger(std::string_view key, std::string_view text,
                                  const DataType& type) {
  if (auto number = ParseNumber<int64_t>(key, text)) return *number;
  if (type.kind() == TypeKind::kTimestamp) {
    auto micros = ParseTimestamp(text, 6, type.utc());
    if (micros) return *micros;
  }
  if (type.kind() == TypeKind::kDate32) {
    auto days = ParseDate(text);
    if (days) return *days;
  }
  return InvalidArgument("datagen option '{}': '{}' is not a {} value", key, text, type.ToString());
}

class DatagenEnumerator : public SplitEnumerator {
 public:
  Status Start(SplitEnumeratorContext& context, std::optional<std::string>) override {
    context_ = &context;
    return Ok();
  }
  // The readers share the rows out among themselves; one that asks gets nothing.
  Status HandleSplitRequest(int subtask) override {
    context_->SignalNoMoreSplits(subtask);
    return Ok();
  }
  Result<std::string> SnapshotState(int64_t) override { return std::string(); }

 private:
  SplitEnumeratorContext* context_ = nullptr;
};

}  // namespace

struct DatagenSource::FieldGenerator {
  enum class Kind { kSequence, kRandom };
  Kind kind = Kind::kRandom;
  uint64_t key = 0;  // from the seed and the field's name
  int64_t start = 0, end = 0;
  int64_t min = 0, max = 0;
  double min_double = 0, max_double = 0;
  int64_t length = 10;
  // Random values are multiples of step: a TIMESTAMP(3) column gets whole milliseconds, as
  // Flink's datagen generates them.
  int64_t step = 1;

  uint64_t Bits(int64_t row) const { return Mix(key + static_cast<uint64_t>(row)); }

  int64_t Integer(int64_t row) const {
    if (kind == Kind::kSequence) return start + row;
    if (step > 1) {
      const int64_t low = min / step + (min % step > 0 ? 1 : 0);   // ceil(min / step)
      const int64_t high = max / step - (max % step < 0 ? 1 : 0);  // floor(max / step)
      if (low <= high) {
        uint64_t steps = static_cast<uint64_t>(high) - static_cast<uint64_t>(low) + 1;
        return (low + static_cast<int64_t>(Below(Bits(row), steps))) * step;
      }
    }
    uint64_t range = static_cast<uint64_t>(max) - static_cast<uint64_t>(min) + 1;
    return static_cast<int64_t>(static_cast<uint64_t>(min) + Below(Bits(row), range));
  }
  double Double(int64_t row) const {
    if (kind == Kind::kSequence) return static_cast<double>(start + row);
    double unit = static_cast<double>(Bits(row) >> 11) * 0x1.0p-53;
    return min_double + unit * (max_double - min_double);
  }
};

Result<std::shared_ptr<DatagenSource>> DatagenSource::Make(
    BatchSchemaPtr schema, const std::map<std::string, std::string>& options) {
  if (schema == nullptr || schema->num_fields() == 0) {
    return InvalidArgument("datagen needs at least one column");
  }
  auto source = std::shared_ptr<DatagenSource>(new DatagenSource());
  source->schema_ = schema;
  uint64_t seed = 0;
  std::optional<int64_t> row_count;
  for (const auto& [key, value] : options) {
    if (key.starts_with(kFieldsPrefix)) continue;
    if (key == "rows-per-second") {
      FLOE_ASSIGN_OR_RETURN(source->rows_per_second_, ParseNumber<int64_t>(key, value));
      if (source->rows_per_second_ < 0) return InvalidArgument("datagen: {} is negative", key);
    } else if (key == "number-of-rows") {
      FLOE_ASSIGN_OR_RETURN(row_count, ParseNumber<int64_t>(key, value));
      if (*row_count < 0) return InvalidArgument("datagen: {} is negative", key);
    } else if (key == "seed") {
      FLOE_ASSIGN_OR_RETURN(seed, ParseNumber<uint64_t>(key, value));
    } else if (key == "batch-size") {
      FLOE_ASSIGN_OR_RETURN(source->batch_size_, ParseNumber<int64_t>(key, value));
      if (source->batch_size_ < 1) return InvalidArgument("datagen: {} must be positive", key);
    } else if (key == "split-count") {
      FLOE_ASSIGN_OR_RETURN(source->split_count_, ParseNumber<int64_t>(key, value));
      if (source->split_count_ < 1 || source->split_count_ > (1 << 20)) {
        return InvalidArgument("datagen: {} must be in [1, 1048576]", key);
      }
    } else {
      return InvalidArgument("datagen: unknown option '{}'", key);
    }
  }

  for (const Field& field : schema->fields()) {
    const DataType& type = *field.type;
    FieldGenerator generator;
    generator.key = Mix(seed ^ XxHash64(field.name));
    auto option = [&](std::string_view name) -> const std::string* {
      auto it = options.find(fmt::format("{}{}.{}", kFieldsPrefix, field.name, name));
      return it == options.end() ? nullptr : &it->second;
    };
    auto key = [&](std::string_view name) {
      return fmt::format("{}{}.{}", kFieldsPrefix, field.name, name);
    };
    if (const std::string* kind = option("kind")) {
      if (*kind == "sequence") {
        generator.kind = FieldGenerator::Kind::kSequence;
      } else if (*kind != "random") {
        return InvalidArgument("datagen option '{}': '{}' is neither sequence nor random",
                               key("kind"), *kind);
      }
    }
    bool integral = false;
    int64_t type_min = std::numeric_limits<int64_t>::min();
    int64_t type_max = std::numeric_limits<int64_t>::max();
    switch (type.kind()) {
      case TypeKind::kInt32:
      case TypeKind::kDate32:
        type_min = std::numeric_limits<int32_t>::min();
        type_max = std::numeric_limits<int32_t>::max();
        integral = true;
        break;
      case TypeKind::kInt64:
      case TypeKind::kTimestamp:
        integral = true;
        break;
      case TypeKind::kFloat32:
      case TypeKind::kFloat64:
      case TypeKind::kBool:
      case TypeKind::kString:
        break;
      default:
        return InvalidArgument("datagen: column {} has type {}, which datagen does not generate",
                               field.name, type.ToString());
    }
    if (type.kind() == TypeKind::kTimestamp && type.unit() != TimeUnit::kMicro) {
      return InvalidArgument("datagen: column {}: only microsecond timestamps", field.name);
    }
    if (generator.kind == FieldGenerator::Kind::kSequence) {
      const std::string* start = option("start");
      const std::string* end = option("end");
      if (start == nullptr || end == nullptr) {
        return InvalidArgument("datagen: sequence column {} needs {} and {}", field.name,
                               key("start"), key("end"));
      }
      FLOE_ASSIGN_OR_RETURN(generator.start, ParseFieldInteger(key("start"), *start, type));
      FLOE_ASSIGN_OR_RETURN(generator.end, ParseFieldInteger(key("end"), *end, type));
      if (generator.start > generator.end || generator.start < type_min ||
          generator.end > type_max) {
        return InvalidArgument("datagen: column {}: sequence [{}, {}] is empty or leaves {}",
                               field.name, generator.start, generator.end, type.ToString());
      }
      // A sequence bounds the source, as in Flink: after its end there is no next value.
      uint64_t length =
          static_cast<uint64_t>(generator.end) - static_cast<uint64_t>(generator.start) + 1;
      int64_t capped = length == 0 || length > static_cast<uint64_t>(INT64_MAX)
                           ? INT64_MAX
                           : static_cast<int64_t>(length);
      row_count = std::min(row_count.value_or(INT64_MAX), capped);
    } else if (integral) {
      generator.min = type_min;
      generator.max = type_max;
      if (type.kind() == TypeKind::kTimestamp) {
        // Without bounds: 2000-01-01 to 2030-01-01, values that read well and fit every engine.
        generator.min = 946'684'800'000'000;
        generator.max = 1'893'456'000'000'000;
        for (int digits = 6; digits > type.precision(); --digits) generator.step *= 10;
      }
      if (const std::string* min = option("min")) {
        FLOE_ASSIGN_OR_RETURN(generator.min, ParseFieldInteger(key("min"), *min, type));
      }
      if (const std::string* max = option("max")) {
        FLOE_ASSIGN_OR_RETURN(generator.max, ParseFieldInteger(key("max"), *max, type));
      }
      if (generator.min > generator.max || generator.min < type_min || generator.max > type_max) {
        return InvalidArgument("datagen: column {}: range [{}, {}] is empty or leaves {}",
                               field.name, generator.min, generator.max, type.ToString());
      }
    } else if (type.kind() == TypeKind::kFloat32 || type.kind() == TypeKind::kFloat64) {
      generator.min_double = 0;
      generator.max_double = 1;
      if (const std::string* min = option("min")) {
        FLOE_ASSIGN_OR_RETURN(generator.min_double, ParseNumber<double>(key("min"), *min));
      }
      if (const std::string* max = option("max")) {
        FLOE_ASSIGN_OR_RETURN(generator.max_double, ParseNumber<double>(key("max"), *max));
      }
      if (!(generator.min_double <= generator.max_double)) {
        return InvalidArgument("datagen: column {}: min {} is above max {}", field.name,
                               generator.min_double, generator.max_double);
      }
    }
    if (const std::string* length = option("length")) {
      FLOE_ASSIGN_OR_RETURN(generator.length, ParseNumber<int64_t>(key("length"), *length));
      if (generator.length < 0 || generator.length > kMaxStringLength) {
        return InvalidArgument("datagen option '{}': {} is not in [0, {}]", key("length"),
                               generator.length, kMaxStringLength);
      }
    }
    source->fields_.push_back(generator);
  }
  // Options naming no column are typos: refuse them rather than generate something else.
  for (const auto& [key, value] : options) {
    if (!key.starts_with(kFieldsPrefix)) continue;
    std::string_view rest = std::string_view(key).substr(kFieldsPrefix.size());
    size_t dot = rest.rfind('.');
    std::string_view name = rest.substr(0, dot == std::string_view::npos ? 0 : dot);
    std::string_view option = dot == std::string_view::npos ? "" : rest.substr(dot + 1);
    if (schema->FindFieldIndex(name) < 0) {
      return InvalidArgument("datagen option '{}': no column '{}'", key, name);
    }
    static constexpr std::string_view kFieldOptions[] = {"kind", "start", "end",
                                                         "min",  "max",   "length"};
    if (std::ranges::find(kFieldOptions, option) == std::end(kFieldOptions)) {
      return InvalidArgument("datagen: unknown option '{}'", key);
    }
  }
  source->row_count_ = row_count;
  return source;
}

DatagenSource::~DatagenSource() = default;

Result<RecordBatch> DatagenSource::GenerateRows(std::span<const int64_t> rows) const {
  std::vector<Array> columns;
  int64_t n = static_cast<int64_t>(rows.size());
  for (size_t c = 0; c < fields_.size(); ++c) {
    const FieldGenerator& generator = fields_[c];
    const DataTypePtr& type = schema_->field(c).type;
    std::unique_ptr<ArrayBuilder> builder = MakeBuilder(type);
    builder->Reserve(n);
    // One loop per type: the dispatch happens once per column, not per value.
    switch (type->kind()) {
      case TypeKind::kInt32:
      case TypeKind::kDate32: {
        auto& out = static_cast<Int32Builder&>(*builder);
        for (int64_t row : rows) out.UnsafeAppend(static_cast<int32_t>(generator.Integer(row)));
        break;
      }
      case TypeKind::kInt64:
      case TypeKind::kTimestamp: {
        auto& out = static_cast<Int64Builder&>(*builder);
        for (int64_t row : rows) out.UnsafeAppend(generator.Integer(row));
        break;
      }
      case TypeKind::kFloat32: {
        auto& out = static_cast<Float32Builder&>(*builder);
        for (int64_t row : rows) out.UnsafeAppend(static_cast<float>(generator.Double(row)));
        break;
      }
      case TypeKind::kFloat64: {
        auto& out = static_cast<Float64Builder&>(*builder);
        for (int64_t row : rows) out.UnsafeAppend(generator.Double(row));
        break;
      }
      case TypeKind::kBool: {
        auto& out = static_cast<BooleanBuilder&>(*builder);
        for (int64_t row : rows) {
          bool value = generator.kind == FieldGenerator::Kind::kSequence
                           ? ((generator.start + row) & 1) != 0
                           : (generator.Bits(row) & 1) != 0;
          out.Append(value);
        }
        break;
      }
      case TypeKind::kString: {
        auto& out = static_cast<StringBuilder&>(*builder);
        static constexpr char kAlphabet[] =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_";
        std::string text;
        if (generator.kind == FieldGenerator::Kind::kSequence) {
          for (int64_t row : rows) {
            text.clear();
            fmt::format_to(std::back_inserter(text), "{}", generator.start + row);
            out.Append(text);
          }
          break;
        }
        // Ten characters of six bits from each 64-bit word of the row's stream. The characters
        // are written in place (no per-character growth checks) and the column's bytes reserved
        // once: this loop is most of datagen's cost for string columns.
        text.resize(static_cast<size_t>(generator.length));
        out.ReserveData(n * generator.length);
        for (int64_t row : rows) {
          uint64_t bits = generator.Bits(row);
          for (int64_t i = 0; i < generator.length; ++i) {
            if (i % 10 == 0 && i > 0) bits = Mix(bits);
            text[static_cast<size_t>(i)] = kAlphabet[bits & 63];
            bits >>= 6;
          }
          out.UnsafeAppend(text);
        }
        break;
      }
      default:
        return InternalError("datagen: unexpected type {}", type->ToString());
    }
    FLOE_ASSIGN_OR_RETURN(Array array, builder->Finish());
    columns.push_back(std::move(array));
  }
  return RecordBatch::Make(schema_, std::move(columns), n);
}

namespace {

// One share of the rows: row next, next + shares, ... below the end.
struct Share {
  int64_t index = 0;
  int64_t shares = 1;
  int64_t next = 0;
};

std::string EncodeShare(const Share& share) {
  return fmt::format("{}{}:{}:{}", kStatePrefix, share.index, share.shares, share.next);
}

Result<Share> DecodeShare(std::string_view entry) {
  auto bad = [&] { return CorruptData("datagen reader state '{}' is malformed", entry); };
  if (!entry.starts_with(kStatePrefix)) return bad();
  entry.remove_prefix(kStatePrefix.size());
  int64_t values[3];
  for (int i = 0; i < 3; ++i) {
    size_t colon = i < 2 ? entry.find(':') : entry.size();
    if (colon == std::string_view::npos) return bad();
    std::string_view digits = entry.substr(0, colon);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), values[i]);
    if (ec != std::errc() || end != digits.data() + digits.size()) return bad();
    entry.remove_prefix(std::min(entry.size(), colon + 1));
  }
  Share share{values[0], values[1], values[2]};
  if (share.shares < 1 || share.index < 0 || share.index >= share.shares || share.next < 0 ||
      share.next % share.shares != share.index) {
    return bad();
  }
  return share;
}

class DatagenReader : public SourceReader {
 public:
  DatagenReader(std::shared_ptr<const DatagenSource> source, int64_t rows_per_second,
                int64_t batch_size, int64_t split_count)
      : source_(std::move(source)),
        total_rate_(rows_per_second),
        batch_size_(batch_size),
        split_count_(split_count),
        end_(source_->row_count().value_or(INT64_MAX)) {}

  Status Open(const OperatorContext& context, SourceReaderContext&) override {
    if (context.restored_checkpoint_id.has_value()) {
      for (const std::string& entry : context.restored_state) {
        FLOE_ASSIGN_OR_RETURN(Share share, DecodeShare(entry));
        shares_.push_back(share);
      }
    } else {
      int64_t count = std::max<int64_t>(split_count_, context.parallelism);
      for (int64_t s = context.subtask_index; s < count; s += context.parallelism) {
        shares_.push_back({s, count, s});
      }
    }
    if (total_rate_ > 0) {
      rate_ = std::max<double>(1.0, static_cast<double>(total_rate_) / context.parallelism);
    }
    return Ok();
  }

  void AddSplits(std::vector<std::any>) override {}
  void NotifyNoMoreSplits() override {}

  Result<PollStatus> PollNext(Output& output) override {
    int64_t want = batch_size_;
    if (rate_ > 0) {
      auto now = std::chrono::steady_clock::now();
      if (!started_) {
        started_ = true;
        start_time_ = now;
      }
      double seconds = std::chrono::duration<double>(now - start_time_).count();
      // A second's worth at once at most, so that a stalled reader does not burst afterwards.
      int64_t allowed = static_cast<int64_t>(seconds * rate_) - emitted_;
      if (allowed > rate_) {
        emitted_ += allowed - static_cast<int64_t>(rate_);
        allowed = static_cast<int64_t>(rate_);
      }
      want = std::min(want, allowed);
      if (want <= 0) return PollStatus::kNothingNow;
    }
    rows_.clear();
    // Round robin over the shares, so that each advances (in order within itself); a batch may
    // end inside a round, and the next one goes on from there.
    size_t idle = 0;
    while (static_cast<int64_t>(rows_.size()) < want && idle < shares_.size()) {
      Share& share = shares_[cursor_];
      cursor_ = cursor_ + 1 == shares_.size() ? 0 : cursor_ + 1;
      if (share.next >= end_) {
        ++idle;
        continue;
      }
      idle = 0;
      rows_.push_back(share.next);
      share.next = share.next > end_ - share.shares ? end_ : share.next + share.shares;
    }
    if (rows_.empty()) return PollStatus::kEnd;
    emitted_ += static_cast<int64_t>(rows_.size());
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch, source_->GenerateRows(rows_));
    FLOE_RETURN_IF_ERROR(output.Emit(std::move(batch)));
    return PollStatus::kMoreAvailable;
  }

  // The next row number of each of the reader's shares: "<index>/<shares>:<next>", comma
  // separated (share i of n holds the rows r with r % n == i).
  std::optional<std::string> Position() const override {
    std::string position;
    for (const Share& share : shares_) {
      if (!position.empty()) position += ',';
      position += fmt::format("{}/{}:{}", share.index, share.shares, share.next);
    }
    return position;
  }

  Result<std::vector<std::string>> SnapshotState(int64_t) override {
    std::vector<std::string> entries;
    for (const Share& share : shares_) {
      if (share.next < end_) entries.push_back(EncodeShare(share));
    }
    return entries;
  }

 private:
  std::shared_ptr<const DatagenSource> source_;
  int64_t total_rate_;
  int64_t batch_size_;
  int64_t split_count_;
  int64_t end_;
  std::vector<Share> shares_;
  size_t cursor_ = 0;  // the share the next row comes from
  std::vector<int64_t> rows_;
  double rate_ = 0;
  bool started_ = false;
  std::chrono::steady_clock::time_point start_time_;
  int64_t emitted_ = 0;
};

}  // namespace

Result<std::unique_ptr<SplitEnumerator>> DatagenSource::CreateEnumerator() {
  return std::make_unique<DatagenEnumerator>();
}

Result<std::unique_ptr<SourceReader>> DatagenSource::CreateReader(int) {
  return std::make_unique<DatagenReader>(shared_from_this(), rows_per_second_, batch_size_,
                                         split_count_);
}

}  // namespace floe::stream
