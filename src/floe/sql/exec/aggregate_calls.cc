#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>

#include "floe/batch/type_kinds.h"
#include "floe/sql/exec/aggregate_calls_internal.h"
#include "floe/sql/exec/cell_internal.h"

namespace floe::sql::exec {
namespace {

// AVG of DECIMAL(p, s) follows Flink's type inference for AVG (LogicalTypeMerging's average
// type: the quotient type of a DECIMAL(38, s) sum by a count), which comes to DECIMAL(38,
// max(6, s)); the quotient is rounded half up, as Java's BigDecimal division in Flink does.
constexpr int32_t kAvgMinScale = 6;
constexpr int32_t kMaxPrecision = 38;

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

template <typename T>
void PutFixed(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.push_back('\1');
  out.append(bytes, sizeof(T));
}

// An integer or floating result in the argument's own type, as Flink's SUM and AVG give it
// (narrowing wraps, as Java's does); false for other types.
bool PutInArgumentType(TypeKind kind, int64_t integer, double floating, std::string& out) {
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

// Batch MIN/MAX values of strings and binaries compare as unsigned bytes.
int CompareViews(std::string_view a, std::string_view b) { return a.compare(b); }

}  // namespace

bool CallState::EncodedLess::operator()(const std::string& a, const std::string& b) const {
  return CompareEncoded(*type, a, b) < 0;
}

CallState::CallState(BoundCall bound, bool streaming)
    : bound_(std::move(bound)), streaming_(streaming) {
  AggregateKind kind = bound_.call.kind;
  is_min_ = kind == AggregateKind::kMin;
  if (bound_.argument_type) argument_kind_ = bound_.argument_type->kind();
  if (kind == AggregateKind::kMin || kind == AggregateKind::kMax) {
    if (argument_kind_ == TypeKind::kBool) {
      width_ = 1;
    } else {
      VisitFixed(argument_kind_, [&]<typename T>(T) { width_ = static_cast<int>(sizeof(T)); });
    }
  }
  if (bound_.call.distinct && kind != AggregateKind::kCountStar) {
    distinct_ = std::make_unique<DistinctSet>();
  }
}

void CallState::Resize(uint32_t groups) {
  if (groups <= groups_) return;
  groups_ = groups;
  switch (bound_.call.kind) {
    case AggregateKind::kCountStar:
    case AggregateKind::kCount:
      counts_.resize(groups);
      return;
    case AggregateKind::kSum:
    case AggregateKind::kAvg:
      counts_.resize(groups);
      if (IsIntegerKind(argument_kind_)) {
        sum_int_.resize(groups);
      } else if (IsFloat(argument_kind_)) {
        sum_double_.resize(groups);
      } else {
        sum_decimal_.resize(groups);
      }
      return;
    case AggregateKind::kMin:
    case AggregateKind::kMax:
      if (streaming_) {
        values_.resize(groups);
      } else {
        present_.resize(groups);
        if (width_ > 0) {
          best_.resize(static_cast<size_t>(groups) * static_cast<size_t>(width_));
        } else {
          best_bytes_.resize(groups);
        }
      }
      return;
  }
}

Status CallState::Update(const RecordBatch& batch, const GroupRows& in) {
  if (bound_.call.kind == AggregateKind::kCountStar) {
    if (in.groups == nullptr && in.signs == nullptr) {
      counts_[in.group] += in.num_rows;
      return {};
    }
    ForRows(in, [&](int64_t, uint32_t group, int sign) {
      counts_[group] += sign;
      return true;
    });
    return {};
  }
  const Array& argument = batch.column(bound_.call.argument);
  GroupRows rows = in;
  if (distinct_) FLOE_RETURN_IF_ERROR(FilterDistinct(argument, in, rows));
  switch (bound_.call.kind) {
    case AggregateKind::kCountStar:
    case AggregateKind::kCount: {
      bool nulls = argument.null_count() > 0;
      ForRows(rows, [&](int64_t r, uint32_t group, int sign) {
        if (!nulls || argument.IsValid(r)) counts_[group] += sign;
        return true;
      });
      return {};
    }
    case AggregateKind::kSum:
    case AggregateKind::kAvg:
      return UpdateSum(argument, rows);
    case AggregateKind::kMin:
    case AggregateKind::kMax:
      if (streaming_) {
        UpdateStreamingExtreme(argument, rows);
      } else {
        UpdateExtreme(argument, rows);
      }
      return {};
  }
  return {};
}

Status CallState::FilterDistinct(const Array& argument, const GroupRows& in, GroupRows& filtered) {
  if (distinct_->num_ids() > HashIndex::kMaxEntries - static_cast<uint64_t>(in.num_rows)) {
    return ResourceExhausted("{}(DISTINCT ...): more than {} distinct values",
                             KindName(bound_.call.kind), HashIndex::kMaxEntries);
  }
  distinct_signs_.resize(static_cast<size_t>(in.num_rows));
  distinct_->Update(argument, in, distinct_signs_.data());
  filtered = in;
  filtered.signs = distinct_signs_.data();
  return {};
}

Status CallState::UpdateSum(const Array& argument, const GroupRows& rows) {
  bool nulls = argument.null_count() > 0;
  Status status;
  if (rows.groups == nullptr && rows.signs == nullptr) return UpdateDenseSum(argument, rows.group);
  if (IsIntegerKind(argument_kind_)) {
    VisitFixed(argument_kind_, [&]<typename T>(T) {
      if constexpr (std::is_integral_v<T>) {
        ForRows(rows, [&](int64_t r, uint32_t group, int sign) {
          if (nulls && argument.IsNull(r)) return true;
          T raw = FixedAt<T>(argument, r);
          if constexpr (std::is_same_v<T, uint64_t>) {
            if (raw > static_cast<uint64_t>(INT64_MAX)) {
              status = InvalidArgument("{}: the value {} does not fit in BIGINT",
                                       KindName(bound_.call.kind), raw);
              return false;
            }
          }
          auto value = static_cast<int64_t>(raw);
          int64_t& sum = sum_int_[group];
          counts_[group] += sign;
          if (sign > 0 ? __builtin_add_overflow(sum, value, &sum)
                       : __builtin_sub_overflow(sum, value, &sum)) {
            status = InvalidArgument("{} of column {} overflowed BIGINT",
                                     KindName(bound_.call.kind), bound_.call.argument);
            return false;
          }
          return true;
        });
      }
    });
    return status;
  }
  if (IsFloat(argument_kind_)) {
    VisitFixed(argument_kind_, [&]<typename T>(T) {
      if constexpr (std::is_floating_point_v<T>) {
        ForRows(rows, [&](int64_t r, uint32_t group, int sign) {
          if (nulls && argument.IsNull(r)) return true;
          counts_[group] += sign;
          sum_double_[group] += sign * static_cast<double>(FixedAt<T>(argument, r));
          return true;
        });
      }
    });
    return {};
  }
  __int128 limit = Pow10(kMaxPrecision);
  ForRows(rows, [&](int64_t r, uint32_t group, int sign) {
    if (nulls && argument.IsNull(r)) return true;
    __int128 value = FixedAt<__int128>(argument, r);
    __int128& sum = sum_decimal_[group];
    counts_[group] += sign;
    bool overflow = sign > 0 ? __builtin_add_overflow(sum, value, &sum)
                             : __builtin_sub_overflow(sum, value, &sum);
    if (overflow || sum >= limit || sum <= -limit) {
      status =
          InvalidArgument("{} of column {} overflowed DECIMAL(38, {})", KindName(bound_.call.kind),
                          bound_.call.argument, argument.type()->scale());
      return false;
    }
    return true;
  });
  return status;
}

// One group and no retractions (an aggregate without GROUP BY over inserts): the sum and count
// stay in registers, where the general loop goes through memory for every row.
Status CallState::UpdateDenseSum(const Array& argument, uint32_t group) {
  bool nulls = argument.null_count() > 0;
  int64_t n = argument.length();
  int64_t count = 0;
  Status status;
  VisitFixed(argument_kind_, [&]<typename T>(T) {
    if constexpr (std::is_integral_v<T>) {
      int64_t sum = sum_int_[group];
      for (int64_t r = 0; r < n; ++r) {
        if (nulls && argument.IsNull(r)) continue;
        T raw = FixedAt<T>(argument, r);
        if constexpr (std::is_same_v<T, uint64_t>) {
          if (raw > static_cast<uint64_t>(INT64_MAX)) {
            status = InvalidArgument("{}: the value {} does not fit in BIGINT",
                                     KindName(bound_.call.kind), raw);
            return;
          }
        }
        ++count;
        if (__builtin_add_overflow(sum, static_cast<int64_t>(raw), &sum)) {
          status = InvalidArgument("{} of column {} overflowed BIGINT", KindName(bound_.call.kind),
                                   bound_.call.argument);
          return;
        }
      }
      sum_int_[group] = sum;
    } else if constexpr (std::is_floating_point_v<T>) {
      double sum = sum_double_[group];
      for (int64_t r = 0; r < n; ++r) {
        if (nulls && argument.IsNull(r)) continue;
        ++count;
        sum += static_cast<double>(FixedAt<T>(argument, r));
      }
      sum_double_[group] = sum;
    } else if constexpr (std::is_same_v<T, __int128>) {
      __int128 sum = sum_decimal_[group];
      __int128 limit = Pow10(kMaxPrecision);
      for (int64_t r = 0; r < n; ++r) {
        if (nulls && argument.IsNull(r)) continue;
        ++count;
        if (__builtin_add_overflow(sum, FixedAt<__int128>(argument, r), &sum) || sum >= limit ||
            sum <= -limit) {
          status = InvalidArgument("{} of column {} overflowed DECIMAL(38, {})",
                                   KindName(bound_.call.kind), bound_.call.argument,
                                   argument.type()->scale());
          return;
        }
      }
      sum_decimal_[group] = sum;
    }
  });
  counts_[group] += count;
  return status;
}

void CallState::UpdateExtreme(const Array& argument, const GroupRows& rows) {
  // Batch mode keeps only the extreme so far: without every value kept, a retraction cannot
  // reveal the next extreme, so a retracted row counts as seen.
  bool nulls = argument.null_count() > 0;
  if (IsBinaryKind(argument_kind_)) {
    ForRows(rows, [&](int64_t r, uint32_t group, int) {
      if (nulls && argument.IsNull(r)) return true;
      std::string_view value = argument.GetView(r);
      std::string& best = best_bytes_[group];
      if (!present_[group] ||
          (is_min_ ? CompareViews(value, best) < 0 : CompareViews(value, best) > 0)) {
        best.assign(value);
        present_[group] = 1;
      }
      return true;
    });
    return;
  }
  auto update = [&]<typename T>(auto value_at) {
    ForRows(rows, [&](int64_t r, uint32_t group, int) {
      if (nulls && argument.IsNull(r)) return true;
      T value = value_at(r);
      char* slot = best_.data() + static_cast<size_t>(group) * sizeof(T);
      T best;
      std::memcpy(&best, slot, sizeof(T));
      if (!present_[group] || (is_min_ ? CompareFixed(argument_kind_, value, best) < 0
                                       : CompareFixed(argument_kind_, value, best) > 0)) {
        std::memcpy(slot, &value, sizeof(T));
        present_[group] = 1;
      }
      return true;
    });
  };
  if (argument_kind_ == TypeKind::kBool) {
    update.operator()<uint8_t>(
        [&](int64_t r) { return static_cast<uint8_t>(argument.GetBool(r)); });
    return;
  }
  VisitFixed(argument_kind_, [&]<typename T>(T) {
    update.template operator()<T>([&](int64_t r) { return Canonical(FixedAt<T>(argument, r)); });
  });
}

void CallState::UpdateStreamingExtreme(const Array& argument, const GroupRows& rows) {
  bool nulls = argument.null_count() > 0;
  std::string value;
  ForRows(rows, [&](int64_t r, uint32_t group, int sign) {
    if (nulls && argument.IsNull(r)) return true;
    value.clear();
    EncodeCell(argument, r, value);
    std::unique_ptr<ValueCounts>& counts = values_[group];
    if (!counts) counts = std::make_unique<ValueCounts>(EncodedLess{bound_.argument_type.get()});
    auto it = counts->try_emplace(value, 0).first;
    it->second += sign;
    if (it->second <= 0) counts->erase(it);
    return true;
  });
}

void CallState::EncodeResult(uint32_t group, std::string& out) const {
  switch (bound_.call.kind) {
    case AggregateKind::kCountStar:
    case AggregateKind::kCount:
      PutFixed<int64_t>(out, counts_[group]);
      return;
    case AggregateKind::kSum:
      if (counts_[group] == 0) {
        out.push_back('\0');
      } else if (!PutInArgumentType(argument_kind_, sum_int_.empty() ? 0 : sum_int_[group],
                                    sum_double_.empty() ? 0 : sum_double_[group], out)) {
        PutFixed<__int128>(out, sum_decimal_[group]);
      }
      return;
    case AggregateKind::kAvg:
      EncodeAverage(group, out);
      return;
    case AggregateKind::kMin:
    case AggregateKind::kMax:
      if (streaming_) {
        const ValueCounts* counts = values_[group].get();
        if (!counts || counts->empty()) {
          out.push_back('\0');
        } else {
          out += is_min_ ? counts->begin()->first : counts->rbegin()->first;
        }
        return;
      }
      if (!present_[group]) {
        out.push_back('\0');
        return;
      }
      out.push_back('\1');
      if (width_ > 0) {
        out.append(best_.data() + static_cast<size_t>(group) * static_cast<size_t>(width_),
                   static_cast<size_t>(width_));
      } else {
        const std::string& best = best_bytes_[group];
        auto size = static_cast<uint32_t>(best.size());
        char bytes[sizeof(size)];
        std::memcpy(bytes, &size, sizeof(size));
        out.append(bytes, sizeof(size));
        out += best;
      }
      return;
  }
}

void CallState::EncodeAverage(uint32_t group, std::string& out) const {
  int64_t count = counts_[group];
  if (count == 0) {
    out.push_back('\0');
    return;
  }
  if (PutInArgumentType(argument_kind_, sum_int_.empty() ? 0 : sum_int_[group] / count,
                        sum_double_.empty() ? 0 : sum_double_[group] / static_cast<double>(count),
                        out)) {
    return;
  }
  // Divide first, then scale quotient and remainder apart: sum * 10^d may not fit in 128 bits
  // where the average does. An average beyond DECIMAL(38) is null, as Flink's decimal arithmetic
  // gives on overflow.
  __int128 sum = sum_decimal_[group];
  __int128 factor = Pow10(bound_.result_type->scale() - bound_.argument_type->scale());
  __int128 whole = sum / count;
  __int128 rest = sum % count * factor;
  __int128 fraction = rest / count;
  __int128 left = rest % count;
  if (2 * (left < 0 ? -left : left) >= count) fraction += rest < 0 ? -1 : 1;
  __int128 quotient = 0;
  __int128 limit = Pow10(kMaxPrecision);
  if (__builtin_mul_overflow(whole, factor, &quotient) || quotient >= limit || quotient <= -limit) {
    out.push_back('\0');
    return;
  }
  quotient += fraction;
  PutFixed(out, quotient);
}

void CallState::Write(std::span<const uint32_t> ids, std::span<const uint32_t> ordinal,
                      StateWriter& writer) const {
  for (uint32_t id : ids) {
    switch (bound_.call.kind) {
      case AggregateKind::kCountStar:
      case AggregateKind::kCount:
        writer.Int64(counts_[id]);
        break;
      case AggregateKind::kSum:
      case AggregateKind::kAvg:
        writer.Int64(counts_[id]);
        if (!sum_int_.empty()) {
          writer.Int64(sum_int_[id]);
        } else if (!sum_double_.empty()) {
          writer.Fixed(sum_double_[id]);
        } else {
          writer.Fixed(sum_decimal_[id]);
        }
        break;
      case AggregateKind::kMin:
      case AggregateKind::kMax:
        if (streaming_) {
          const ValueCounts* counts = values_[id].get();
          writer.Int64(counts ? static_cast<int64_t>(counts->size()) : 0);
          if (counts) {
            for (const auto& [value, count] : *counts) {
              writer.Bytes(value);
              writer.Int64(count);
            }
          }
        } else if (!present_[id]) {
          writer.Bytes({});
        } else if (width_ > 0) {
          writer.Bytes({best_.data() + static_cast<size_t>(id) * static_cast<size_t>(width_),
                        static_cast<size_t>(width_)});
        } else {
          // A leading byte tells an empty string from no value.
          writer.Bytes("\1" + best_bytes_[id]);
        }
        break;
    }
  }
  if (distinct_) distinct_->Write(ordinal, writer);
}

Status CallState::Read(uint32_t base, uint32_t count, StateReader& reader) {
  for (uint32_t id = base; id < base + count; ++id) {
    FLOE_RETURN_IF_ERROR(ReadGroup(id, reader));
  }
  if (distinct_) return distinct_->Read(base, count, reader);
  return {};
}

Status CallState::ReadGroup(uint32_t id, StateReader& reader) {
  AggregateKind kind = bound_.call.kind;
  if (kind != AggregateKind::kMin && kind != AggregateKind::kMax) {
    FLOE_ASSIGN_OR_RETURN(counts_[id], reader.Int64());
    if (kind == AggregateKind::kCountStar || kind == AggregateKind::kCount) return {};
    if (!sum_int_.empty()) {
      FLOE_ASSIGN_OR_RETURN(sum_int_[id], reader.Int64());
    } else if (!sum_double_.empty()) {
      FLOE_ASSIGN_OR_RETURN(sum_double_[id], reader.Fixed<double>());
    } else {
      FLOE_ASSIGN_OR_RETURN(sum_decimal_[id], reader.Fixed<__int128>());
    }
    return {};
  }
  if (streaming_) {
    FLOE_ASSIGN_OR_RETURN(int64_t size, reader.Int64());
    if (size < 0) return CorruptData("aggregate state: {} values of a group", size);
    if (size == 0) return {};
    auto counts = std::make_unique<ValueCounts>(EncodedLess{bound_.argument_type.get()});
    for (int64_t i = 0; i < size; ++i) {
      FLOE_ASSIGN_OR_RETURN(std::string_view value, reader.Bytes());
      FLOE_ASSIGN_OR_RETURN(int64_t n, reader.Int64());
      counts->emplace(std::string(value), n);
    }
    values_[id] = std::move(counts);
    return {};
  }
  FLOE_ASSIGN_OR_RETURN(std::string_view best, reader.Bytes());
  if (best.empty()) return {};
  if (width_ > 0) {
    if (best.size() != static_cast<size_t>(width_)) {
      return CorruptData("aggregate state: a {}-byte {} value", best.size(),
                         bound_.argument_type->ToString());
    }
    std::memcpy(best_.data() + static_cast<size_t>(id) * static_cast<size_t>(width_), best.data(),
                best.size());
  } else {
    best_bytes_[id].assign(best.substr(1));
  }
  present_[id] = 1;
  return {};
}

void CallState::Clear() {
  groups_ = 0;
  counts_.clear();
  sum_int_.clear();
  sum_double_.clear();
  sum_decimal_.clear();
  present_.clear();
  best_.clear();
  best_bytes_.clear();
  values_.clear();
  if (distinct_) distinct_->Clear();
}

Result<DataTypePtr> AggregateResultType(AggregateKind kind, const DataTypePtr& argument) {
  if (kind == AggregateKind::kCountStar || kind == AggregateKind::kCount) return DataType::Int64();
  if (!argument) return InvalidArgument("{} needs an argument", KindName(kind));
  TypeKind arg = argument->kind();
  switch (kind) {
    case AggregateKind::kSum:
      // Flink's SUM keeps an integer or floating argument's type.
      if (IsIntegerKind(arg) || IsFloat(arg)) return argument;
      if (arg == TypeKind::kDecimal128) {
        return DataType::Decimal128(kMaxPrecision, argument->scale());
      }
      break;
    case AggregateKind::kAvg:
      if (IsIntegerKind(arg) || IsFloat(arg)) return argument;
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

}  // namespace floe::sql::exec
