#include "floe/sql/exec/aggregate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "floe/sql/exec/cell.h"
#include "floe/sql/exec/key_partition.h"
#include "floe/sql/exec/names.h"
#include "floe/sql/exec/row_builder.h"
#include "floe/sql/exec/state_codec.h"

namespace floe::sql::exec {
namespace {

// AVG of DECIMAL(p, s) follows Flink's type inference for AVG (LogicalTypeMerging's average
// type: the quotient type of a DECIMAL(38, s) sum by a count), which comes to DECIMAL(38,
// max(6, s)); the quotient is rounded half up, as Java's BigDecimal division in Flink does.
constexpr int32_t kAvgMinScale = 6;
constexpr int32_t kMaxPrecision = 38;
constexpr int64_t kRowsPerOutputBatch = 64 * 1024;

bool IsInteger(TypeKind kind) {
  switch (kind) {
    case TypeKind::kInt8:
    case TypeKind::kInt16:
    case TypeKind::kInt32:
    case TypeKind::kInt64:
    case TypeKind::kUInt8:
    case TypeKind::kUInt16:
    case TypeKind::kUInt32:
    case TypeKind::kUInt64:
      return true;
    default:
      return false;
  }
}

bool IsFloat(TypeKind kind) { return kind == TypeKind::kFloat32 || kind == TypeKind::kFloat64; }

__int128 Pow10(int32_t n) {
  __int128 value = 1;
  for (int32_t i = 0; i < n; ++i) value *= 10;
  return value;
}

std::string_view KindName(AggregateKind kind) {
  switch (kind) {
    case AggregateKind::kCountStar:
    case AggregateKind::kCount:
      return "COUNT";
    case AggregateKind::kSum:
      return "SUM";
    case AggregateKind::kAvg:
      return "AVG";
    case AggregateKind::kMin:
      return "MIN";
    case AggregateKind::kMax:
      return "MAX";
  }
  return "?";
}

Result<int64_t> IntegerAt(const Array& array, int64_t row) {
  switch (array.kind()) {
    case TypeKind::kInt8:
      return array.Value<int8_t>(row);
    case TypeKind::kInt16:
      return array.Value<int16_t>(row);
    case TypeKind::kInt32:
      return array.Value<int32_t>(row);
    case TypeKind::kInt64:
      return array.Value<int64_t>(row);
    case TypeKind::kUInt8:
      return array.Value<uint8_t>(row);
    case TypeKind::kUInt16:
      return array.Value<uint16_t>(row);
    case TypeKind::kUInt32:
      return array.Value<uint32_t>(row);
    default: {
      uint64_t value = array.Value<uint64_t>(row);
      if (value > static_cast<uint64_t>(INT64_MAX)) {
        return InvalidArgument("SUM: the value {} does not fit in BIGINT", value);
      }
      return static_cast<int64_t>(value);
    }
  }
}

double FloatAt(const Array& array, int64_t row) {
  return array.kind() == TypeKind::kFloat32 ? array.Value<float>(row) : array.Value<double>(row);
}

template <typename T>
void PutFixed(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.push_back('\1');
  out.append(bytes, sizeof(T));
}

struct EncodedLess {
  const DataType* type = nullptr;
  bool operator()(const std::string& a, const std::string& b) const {
    return CompareEncoded(*type, a, b) < 0;
  }
};

struct Accumulator {
  explicit Accumulator(const DataType* type) : values(EncodedLess{type}) {}
  int64_t count = 0;  // rows (COUNT(*)) or non-null values counted (COUNT, SUM, AVG)
  int64_t sum_int = 0;
  double sum_double = 0;
  __int128 sum_decimal = 0;
  std::string best;  // MIN/MAX in batch mode: the encoded extreme so far, empty for none
  std::map<std::string, int64_t, EncodedLess> values;  // MIN/MAX in streaming mode
  std::unordered_map<std::string, int64_t> distinct;
};

struct Group {
  int64_t rows = 0;
  std::vector<Accumulator> accumulators;
};

struct BoundCall {
  AggregateCall call;
  DataTypePtr argument_type;  // null for COUNT(*)
  DataTypePtr result_type;
};

class AggregateOperator : public stream::Operator {
 public:
  AggregateOperator(BatchSchemaPtr input, BatchSchemaPtr output, std::vector<int> group_columns,
                    std::vector<BoundCall> calls)
      : input_(std::move(input)),
        output_(std::move(output)),
        group_columns_(std::move(group_columns)),
        calls_(std::move(calls)) {}

  Status Open(const stream::OperatorContext& context) override {
    streaming_ = context.streaming;
    parallelism_ = context.parallelism;
    name_ = context.operator_name;
    for (const std::string& entry : context.restored_state) {
      FLOE_RETURN_IF_ERROR(Restore(entry));
    }
    return {};
  }

  Status ProcessBatch(int, RecordBatch batch, stream::Output& output) override {
    int64_t n = batch.num_rows();
    row_groups_.assign(static_cast<size_t>(n), nullptr);
    signs_.assign(static_cast<size_t>(n), 1);
    for (int64_t row = 0; row < n; ++row) {
      RowKind kind = batch.row_kind(row);
      int sign = kind == RowKind::kUpdateBefore || kind == RowKind::kDelete ? -1 : 1;
      key_.clear();
      for (int column : group_columns_) EncodeCell(batch.column(column), row, key_);
      auto it = groups_.find(key_);
      if (it == groups_.end()) {
        // A retraction of a row this operator never counted (Flink skips it alike).
        if (sign < 0) continue;
        if (streaming_) before_.emplace(key_, std::nullopt);
        it = groups_.emplace(key_, NewGroup()).first;
      } else if (streaming_ && !before_.contains(key_)) {
        before_.emplace(
            key_, it->second.rows > 0 ? std::optional(EncodeResult(it->second)) : std::nullopt);
      }
      Group& group = it->second;
      if (sign < 0 && group.rows <= 0) continue;
      group.rows += sign;
      row_groups_[row] = &group;
      signs_[row] = static_cast<int8_t>(sign);
    }
    for (size_t i = 0; i < calls_.size(); ++i) {
      FLOE_RETURN_IF_ERROR(Accumulate(i, batch));
    }
    return streaming_ ? EmitChanges(output) : Status{};
  }

  Status Finish(stream::Output& output) override {
    if (streaming_) return {};
    // SQL: an aggregate without GROUP BY gives one row even over no rows.
    if (groups_.empty() && group_columns_.empty()) groups_.emplace(std::string(), NewGroup());
    RowBuilder rows(output_);
    for (auto& [key, group] : groups_) {
      FLOE_RETURN_IF_ERROR(AppendRow(rows, key, EncodeResult(group), RowKind::kInsert));
      if (rows.num_rows() >= kRowsPerOutputBatch) FLOE_RETURN_IF_ERROR(Flush(rows, output));
    }
    groups_.clear();
    return Flush(rows, output);
  }

  Result<std::vector<std::string>> SnapshotState(int64_t, stream::Output&) override {
    StateWriter writer;
    writer.Int64(parallelism_);
    writer.Int64(static_cast<int64_t>(groups_.size()));
    for (const auto& [key, group] : groups_) {
      writer.Bytes(key);
      writer.Int64(group.rows);
      for (const Accumulator& acc : group.accumulators) {
        writer.Int64(acc.count);
        writer.Int64(acc.sum_int);
        writer.Fixed(acc.sum_double);
        writer.Fixed(acc.sum_decimal);
        writer.Bytes(acc.best);
        writer.Int64(static_cast<int64_t>(acc.values.size()));
        for (const auto& [value, count] : acc.values) {
          writer.Bytes(value);
          writer.Int64(count);
        }
        writer.Int64(static_cast<int64_t>(acc.distinct.size()));
        for (const auto& [value, count] : acc.distinct) {
          writer.Bytes(value);
          writer.Int64(count);
        }
      }
    }
    return std::vector<std::string>{writer.Take()};
  }

 private:
  Group NewGroup() const {
    Group group;
    group.accumulators.reserve(calls_.size());
    for (const BoundCall& call : calls_) group.accumulators.emplace_back(call.argument_type.get());
    return group;
  }

  Status Restore(std::string_view entry) {
    StateReader reader(entry);
    FLOE_ASSIGN_OR_RETURN(int64_t parallelism, reader.Int64());
    if (parallelism != parallelism_) {
      return Unsupported(
          "aggregate '{}': its state was taken at parallelism {} and cannot be restored at {}",
          name_, parallelism, parallelism_);
    }
    FLOE_ASSIGN_OR_RETURN(int64_t num_groups, reader.Int64());
    for (int64_t g = 0; g < num_groups; ++g) {
      FLOE_ASSIGN_OR_RETURN(std::string_view key, reader.Bytes());
      Group group = NewGroup();
      FLOE_ASSIGN_OR_RETURN(group.rows, reader.Int64());
      for (Accumulator& acc : group.accumulators) {
        FLOE_ASSIGN_OR_RETURN(acc.count, reader.Int64());
        FLOE_ASSIGN_OR_RETURN(acc.sum_int, reader.Int64());
        FLOE_ASSIGN_OR_RETURN(acc.sum_double, reader.Fixed<double>());
        FLOE_ASSIGN_OR_RETURN(acc.sum_decimal, reader.Fixed<__int128>());
        FLOE_ASSIGN_OR_RETURN(std::string_view best, reader.Bytes());
        acc.best = best;
        FLOE_RETURN_IF_ERROR(ReadCounts(reader, acc.values));
        FLOE_RETURN_IF_ERROR(ReadCounts(reader, acc.distinct));
      }
      groups_.insert_or_assign(std::string(key), std::move(group));
    }
    if (!reader.done()) return CorruptData("aggregate '{}': state has trailing bytes", name_);
    return {};
  }

  template <typename Map>
  static Status ReadCounts(StateReader& reader, Map& counts) {
    FLOE_ASSIGN_OR_RETURN(int64_t size, reader.Int64());
    for (int64_t i = 0; i < size; ++i) {
      FLOE_ASSIGN_OR_RETURN(std::string_view value, reader.Bytes());
      FLOE_ASSIGN_OR_RETURN(int64_t count, reader.Int64());
      counts.emplace(std::string(value), count);
    }
    return {};
  }

  Status Accumulate(size_t index, const RecordBatch& batch) {
    const BoundCall& bound = calls_[index];
    int64_t n = batch.num_rows();
    if (bound.call.kind == AggregateKind::kCountStar) {
      for (int64_t row = 0; row < n; ++row) {
        if (Group* group = row_groups_[row]) group->accumulators[index].count += signs_[row];
      }
      return {};
    }
    const Array& argument = batch.column(bound.call.argument);
    for (int64_t row = 0; row < n; ++row) {
      Group* group = row_groups_[row];
      if (!group || argument.IsNull(row)) continue;
      Accumulator& acc = group->accumulators[index];
      int sign = signs_[row];
      if (bound.call.distinct) {
        value_.clear();
        EncodeCell(argument, row, value_);
        auto it = acc.distinct.try_emplace(value_, 0).first;
        it->second += sign;
        if (it->second > 0 && (sign < 0 || it->second > 1)) continue;
        if (it->second <= 0) {
          bool known = it->second == 0;
          acc.distinct.erase(it);
          if (!known) continue;
        }
      }
      FLOE_RETURN_IF_ERROR(Apply(bound, acc, argument, row, sign));
    }
    return {};
  }

  Status Apply(const BoundCall& bound, Accumulator& acc, const Array& argument, int64_t row,
               int sign) {
    switch (bound.call.kind) {
      case AggregateKind::kCountStar:
      case AggregateKind::kCount:
        acc.count += sign;
        return {};
      case AggregateKind::kSum:
      case AggregateKind::kAvg: {
        acc.count += sign;
        TypeKind kind = argument.kind();
        if (IsInteger(kind)) {
          FLOE_ASSIGN_OR_RETURN(int64_t value, IntegerAt(argument, row));
          bool overflow = sign > 0 ? __builtin_add_overflow(acc.sum_int, value, &acc.sum_int)
                                   : __builtin_sub_overflow(acc.sum_int, value, &acc.sum_int);
          if (overflow) {
            return InvalidArgument("{} of column {} overflowed BIGINT", KindName(bound.call.kind),
                                   bound.call.argument);
          }
        } else if (IsFloat(kind)) {
          acc.sum_double += sign * FloatAt(argument, row);
        } else {
          acc.sum_decimal += sign * argument.GetDecimal(row);
          __int128 limit = Pow10(kMaxPrecision);
          if (acc.sum_decimal >= limit || acc.sum_decimal <= -limit) {
            return InvalidArgument("{} of column {} overflowed DECIMAL(38, {})",
                                   KindName(bound.call.kind), bound.call.argument,
                                   argument.type()->scale());
          }
        }
        return {};
      }
      case AggregateKind::kMin:
      case AggregateKind::kMax: {
        value_.clear();
        EncodeCell(argument, row, value_);
        if (streaming_) {
          auto it = acc.values.try_emplace(value_, 0).first;
          it->second += sign;
          if (it->second <= 0) acc.values.erase(it);
          return {};
        }
        if (acc.best.empty()) {
          acc.best = value_;
        } else {
          int c = CompareEncoded(*argument.type(), value_, acc.best);
          if (bound.call.kind == AggregateKind::kMin ? c < 0 : c > 0) acc.best = value_;
        }
        return {};
      }
    }
    return {};
  }

  // The calls' results as encoded cells (cell.h) of their result types.
  std::string EncodeResult(const Group& group) const {
    std::string out;
    for (size_t i = 0; i < calls_.size(); ++i) {
      const BoundCall& bound = calls_[i];
      const Accumulator& acc = group.accumulators[i];
      switch (bound.call.kind) {
        case AggregateKind::kCountStar:
        case AggregateKind::kCount:
          PutFixed<int64_t>(out, acc.count);
          break;
        case AggregateKind::kSum:
          if (acc.count == 0) {
            out.push_back('\0');
          } else if (!PutInArgumentType(bound.argument_type->kind(), acc.sum_int, acc.sum_double,
                                        out)) {
            PutFixed<__int128>(out, acc.sum_decimal);
          }
          break;
        case AggregateKind::kAvg:
          EncodeAverage(bound, acc, out);
          break;
        case AggregateKind::kMin:
        case AggregateKind::kMax:
          if (!streaming_) {
            out += acc.best.empty() ? std::string(1, '\0') : acc.best;
          } else if (acc.values.empty()) {
            out.push_back('\0');
          } else {
            out += bound.call.kind == AggregateKind::kMin ? acc.values.begin()->first
                                                          : acc.values.rbegin()->first;
          }
          break;
      }
    }
    return out;
  }

  // An integer or floating result in the argument's own type, as Flink's SUM and AVG give it
  // (narrowing wraps, as Java's does); false for other types.
  static bool PutInArgumentType(TypeKind kind, int64_t integer, double floating, std::string& out) {
    switch (kind) {
      case TypeKind::kInt8:
        PutFixed(out, static_cast<int8_t>(integer));
        return true;
      case TypeKind::kInt16:
        PutFixed(out, static_cast<int16_t>(integer));
        return true;
      case TypeKind::kInt32:
        PutFixed(out, static_cast<int32_t>(integer));
        return true;
      case TypeKind::kInt64:
        PutFixed(out, integer);
        return true;
      case TypeKind::kUInt8:
        PutFixed(out, static_cast<uint8_t>(integer));
        return true;
      case TypeKind::kUInt16:
        PutFixed(out, static_cast<uint16_t>(integer));
        return true;
      case TypeKind::kUInt32:
        PutFixed(out, static_cast<uint32_t>(integer));
        return true;
      case TypeKind::kUInt64:
        PutFixed(out, static_cast<uint64_t>(integer));
        return true;
      case TypeKind::kFloat32:
        PutFixed(out, static_cast<float>(floating));
        return true;
      case TypeKind::kFloat64:
        PutFixed(out, floating);
        return true;
      default:
        return false;
    }
  }

  static void EncodeAverage(const BoundCall& bound, const Accumulator& acc, std::string& out) {
    if (acc.count == 0) {
      out.push_back('\0');
      return;
    }
    if (PutInArgumentType(bound.argument_type->kind(), acc.sum_int / acc.count,
                          acc.sum_double / static_cast<double>(acc.count), out)) {
      return;
    }
    // Divide first, then scale quotient and remainder apart: sum * 10^d may not fit in 128 bits
    // where the average does. An average beyond DECIMAL(38) is null, as Flink's decimal
    // arithmetic gives on overflow.
    __int128 factor = Pow10(bound.result_type->scale() - bound.argument_type->scale());
    __int128 whole = acc.sum_decimal / acc.count;
    __int128 rest = acc.sum_decimal % acc.count * factor;
    __int128 fraction = rest / acc.count;
    __int128 left = rest % acc.count;
    if (2 * (left < 0 ? -left : left) >= acc.count) fraction += rest < 0 ? -1 : 1;
    __int128 quotient = 0;
    __int128 limit = Pow10(kMaxPrecision);
    if (__builtin_mul_overflow(whole, factor, &quotient) || quotient >= limit ||
        quotient <= -limit) {
      out.push_back('\0');
      return;
    }
    quotient += fraction;
    PutFixed(out, quotient);
  }

  Status AppendRow(RowBuilder& rows, std::string_view key, std::string_view result,
                   RowKind kind) const {
    int column = 0;
    for (int input_column : group_columns_) {
      FLOE_RETURN_IF_ERROR(
          DecodeCell(*input_->field(input_column).type, key, rows.column(column++)));
    }
    for (const BoundCall& bound : calls_) {
      FLOE_RETURN_IF_ERROR(DecodeCell(*bound.result_type, result, rows.column(column++)));
    }
    rows.EndRow(kind);
    return {};
  }

  static Status Flush(RowBuilder& rows, stream::Output& output) {
    if (rows.num_rows() == 0) return {};
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch, rows.Finish());
    return output.Emit(std::move(batch));
  }

  // Streaming: per group the batch touched, its old row (if it had one) against its new one.
  Status EmitChanges(stream::Output& output) {
    RowBuilder rows(output_);
    for (auto& [key, before] : before_) {
      auto it = groups_.find(key);
      std::optional<std::string> after;
      if (it->second.rows > 0) {
        after = EncodeResult(it->second);
      } else {
        groups_.erase(it);
      }
      if (before && after) {
        if (*before == *after) continue;
        FLOE_RETURN_IF_ERROR(AppendRow(rows, key, *before, RowKind::kUpdateBefore));
        FLOE_RETURN_IF_ERROR(AppendRow(rows, key, *after, RowKind::kUpdateAfter));
      } else if (after) {
        FLOE_RETURN_IF_ERROR(AppendRow(rows, key, *after, RowKind::kInsert));
      } else if (before) {
        FLOE_RETURN_IF_ERROR(AppendRow(rows, key, *before, RowKind::kDelete));
      }
    }
    before_.clear();
    return Flush(rows, output);
  }

  BatchSchemaPtr input_;
  BatchSchemaPtr output_;
  std::vector<int> group_columns_;
  std::vector<BoundCall> calls_;
  bool streaming_ = true;
  int64_t parallelism_ = 1;
  std::string name_;
  std::unordered_map<std::string, Group> groups_;
  std::unordered_map<std::string, std::optional<std::string>> before_;
  std::vector<Group*> row_groups_;
  std::vector<int8_t> signs_;
  std::string key_;
  std::string value_;
};

Result<std::vector<BoundCall>> BindCalls(const BatchSchema& input,
                                         const std::vector<AggregateCall>& calls) {
  std::vector<BoundCall> bound;
  for (const AggregateCall& call : calls) {
    BoundCall b{.call = call};
    if (call.kind != AggregateKind::kCountStar) {
      if (call.argument < 0 || call.argument >= input.num_fields()) {
        return InvalidArgument("{}: argument column {} is not one of the input's {} columns",
                               KindName(call.kind), call.argument, input.num_fields());
      }
      b.argument_type = input.field(call.argument).type;
    }
    FLOE_ASSIGN_OR_RETURN(b.result_type, AggregateResultType(call.kind, b.argument_type));
    if (call.distinct && b.argument_type && b.argument_type->is_nested() &&
        call.kind != AggregateKind::kCount) {
      return InvalidArgument("{}(DISTINCT ...) of {} is not supported", KindName(call.kind),
                             b.argument_type->ToString());
    }
    bound.push_back(std::move(b));
  }
  return bound;
}

}  // namespace

Result<DataTypePtr> AggregateResultType(AggregateKind kind, const DataTypePtr& argument) {
  if (kind == AggregateKind::kCountStar || kind == AggregateKind::kCount) return DataType::Int64();
  if (!argument) return InvalidArgument("{} needs an argument", KindName(kind));
  TypeKind arg = argument->kind();
  switch (kind) {
    case AggregateKind::kSum:
      // Flink's SUM keeps an integer or floating argument's type.
      if (IsInteger(arg) || IsFloat(arg)) return argument;
      if (arg == TypeKind::kDecimal128) {
        return DataType::Decimal128(kMaxPrecision, argument->scale());
      }
      break;
    case AggregateKind::kAvg:
      if (IsInteger(arg) || IsFloat(arg)) return argument;
      if (arg == TypeKind::kDecimal128) {
        return DataType::Decimal128(kMaxPrecision, std::max(kAvgMinScale, argument->scale()));
      }
      break;
    case AggregateKind::kMin:
    case AggregateKind::kMax:
      if (IsOrderable(*argument)) return argument;
      break;
    default:
      break;
  }
  return InvalidArgument("{} of {} is not supported", KindName(kind), argument->ToString());
}

Result<BatchSchemaPtr> AggregateSchema(const BatchSchema& input,
                                       const std::vector<int>& group_columns,
                                       const std::vector<AggregateCall>& calls) {
  std::vector<Field> fields;
  for (int column : group_columns) {
    if (column < 0 || column >= input.num_fields()) {
      return InvalidArgument("GROUP BY column {} is not one of the input's {} columns", column,
                             input.num_fields());
    }
    const Field& field = input.field(column);
    if (!IsDecodable(*field.type)) {
      return Unsupported("GROUP BY a {} column ('{}') is not supported", field.type->ToString(),
                         field.name);
    }
    fields.push_back({.name = field.name, .type = field.type, .nullable = field.nullable});
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<BoundCall> bound, BindCalls(input, calls));
  for (size_t i = 0; i < bound.size(); ++i) {
    AggregateKind kind = bound[i].call.kind;
    std::string name =
        bound[i].call.output_name.empty() ? fmt::format("EXPR${}", i) : bound[i].call.output_name;
    bool count = kind == AggregateKind::kCountStar || kind == AggregateKind::kCount;
    fields.push_back({.name = std::move(name), .type = bound[i].result_type, .nullable = !count});
  }
  return std::make_shared<const BatchSchema>(std::move(fields));
}

stream::OperatorFactory AggregateOperatorFactory(BatchSchemaPtr input, BatchSchemaPtr output,
                                                 std::vector<int> group_columns,
                                                 std::vector<AggregateCall> calls) {
  return [=](int) -> Result<std::unique_ptr<stream::Operator>> {
    FLOE_ASSIGN_OR_RETURN(std::vector<BoundCall> bound, BindCalls(*input, calls));
    return std::make_unique<AggregateOperator>(input, output, group_columns, std::move(bound));
  };
}

Result<stream::DataStream> Aggregate(const stream::DataStream& input,
                                     std::vector<int> group_columns,
                                     std::vector<AggregateCall> calls) {
  FLOE_ASSIGN_OR_RETURN(BatchSchemaPtr output,
                        AggregateSchema(*input.schema(), group_columns, calls));
  std::string name =
      NextOperatorName(input, group_columns.empty() ? "GlobalAggregate" : "Aggregate");
  auto factory = AggregateOperatorFactory(input.schema(), output, group_columns, std::move(calls));
  if (group_columns.empty()) return input.Transform(std::move(name), output, factory, 1);
  stream::DataStream keyed = PartitionByColumns(input, group_columns);
  return keyed.Transform(std::move(name), output, factory);
}

}  // namespace floe::sql::exec
