#include <cstring>

#include "floe/format/orc/column_reader_internal.h"
#include "floe/format/orc/rle_internal.h"
#include "floe/format/orc/schema_internal.h"

namespace floe::orc {
namespace {

// ORC timestamps count seconds from 2015-01-01 00:00:00 UTC.
constexpr int64_t kOrcEpochSeconds = 1420070400;

// The most values one byte of a stream can decode to: RLE v2 delta runs hold 512 values in 4
// bytes, byte RLE 130 bytes (1040 booleans) in 2. A count above it is a corrupt count, refused
// before anything that size is allocated.
constexpr int64_t kMaxIntsPerByte = 128;
constexpr int64_t kMaxBytesPerByte = 65;
constexpr int64_t kMaxBitsPerByte = 520;

std::string_view StreamKindName(StreamKind kind) {
  switch (kind) {
    case StreamKind::kPresent:
      return "PRESENT";
    case StreamKind::kData:
      return "DATA";
    case StreamKind::kLength:
      return "LENGTH";
    case StreamKind::kDictionaryData:
      return "DICTIONARY_DATA";
    case StreamKind::kSecondary:
      return "SECONDARY";
    default:
      return "index";
  }
}

std::string Where(uint32_t column, StreamKind kind) {
  return fmt::format("column {} {} stream", column, StreamKindName(kind));
}

// The bytes of a stream that must hold `count` values at no more than per_byte values a byte;
// without the stream only a count of 0 is possible.
Result<std::span<const std::byte>> Need(const StripeStreams& stripe, uint32_t column,
                                        StreamKind kind, int64_t count, int64_t per_byte) {
  const StreamBytes* stream = stripe.Find(column, kind);
  std::span<const std::byte> bytes = stream ? stream->bytes() : std::span<const std::byte>();
  if (count > 0 && stream == nullptr) {
    return CorruptData("{} is missing for {} values", Where(column, kind), count);
  }
  if (count > 0 && (count - 1) / per_byte >= static_cast<int64_t>(bytes.size())) {
    return CorruptData("{} of {} bytes cannot hold {} values", Where(column, kind), bytes.size(),
                       count);
  }
  return bytes;
}

IntRleVersion Version(const StripeStreams& stripe, uint32_t column) {
  const auto kind = stripe.encodings[column].kind;
  return kind == EncodingKind::kDirect || kind == EncodingKind::kDictionary ? IntRleVersion::kV1
                                                                            : IntRleVersion::kV2;
}

Result<std::vector<int64_t>> ReadInts(const StripeStreams& stripe, uint32_t column, StreamKind kind,
                                      int64_t count, bool is_signed) {
  FLOE_ASSIGN_OR_RETURN(auto bytes, Need(stripe, column, kind, count, kMaxIntsPerByte));
  std::vector<int64_t> values(static_cast<size_t>(count));
  FLOE_RETURN_IF_ERROR_CTX(
      DecodeIntRle(bytes, Version(stripe, column), is_signed, count, values.data()),
      Where(column, kind));
  return values;
}

// Unsigned counts (lengths, dictionary ids) must fit the array offsets.
Result<std::vector<int64_t>> ReadCounts(const StripeStreams& stripe, uint32_t column,
                                        StreamKind kind, int64_t count) {
  FLOE_ASSIGN_OR_RETURN(auto values, ReadInts(stripe, column, kind, count, false));
  for (int64_t v : values) {
    if (v < 0 || v > INT32_MAX) return CorruptData("{} holds the count {}", Where(column, kind), v);
  }
  return values;
}

// Which of a column's entries are present: its own PRESENT bits, for the entries whose parent is
// present.
struct Presence {
  int64_t length = 0;
  int64_t present = 0;
  Buffer validity;  // empty when every entry is present

  bool valid(int64_t i) const { return !validity || bit_util::GetBit(validity.data(), i); }
};

Result<Presence> ReadPresence(const StripeStreams& stripe, uint32_t column, int64_t length,
                              const uint8_t* parent_valid) {
  Presence p;
  p.length = length;
  const int64_t entries = parent_valid ? bit_util::CountSetBits(parent_valid, 0, length) : length;
  const StreamBytes* present = stripe.Find(column, StreamKind::kPresent);
  if (present == nullptr) {
    p.present = entries;
    if (entries != length)
      p.validity = Buffer::CopyOf(parent_valid, bit_util::BytesForBits(length));
    return p;
  }
  FLOE_ASSIGN_OR_RETURN(auto bytes,
                        Need(stripe, column, StreamKind::kPresent, entries, kMaxBitsPerByte));
  BufferBuilder own;
  own.Resize(bit_util::BytesForBits(entries));
  FLOE_RETURN_IF_ERROR_CTX(DecodeBooleanRle(bytes, entries, own.mutable_data()),
                           Where(column, StreamKind::kPresent));
  if (entries == length) {
    p.present = bit_util::CountSetBits(own.data(), 0, length);
    if (p.present != length) p.validity = own.Finish();
    return p;
  }
  BufferBuilder combined;
  combined.Resize(bit_util::BytesForBits(length));
  int64_t next = 0;
  for (int64_t i = 0; i < length; ++i) {
    if (!bit_util::GetBit(parent_valid, i)) continue;
    if (bit_util::GetBit(own.data(), next++)) {
      bit_util::SetBit(combined.mutable_data(), i);
      ++p.present;
    }
  }
  p.validity = combined.Finish();
  return p;
}

// One T per entry, get(j) giving the j-th present one; absent entries are zero.
template <typename T, typename Get>
Buffer Spread(const Presence& p, Get get) {
  BufferBuilder out;
  out.Resize(p.length * static_cast<int64_t>(sizeof(T)));
  T* values = out.mutable_data_as<T>();
  int64_t next = 0;
  for (int64_t i = 0; i < p.length; ++i) {
    if (p.valid(i)) values[i] = get(next++);
  }
  return out.Finish();
}

Array Make(const DataTypePtr& type, const Presence& p, Buffer values, Buffer data = {},
           std::vector<Array> children = {}) {
  return Array(type, p.length, p.validity, std::move(values), std::move(data), std::move(children),
               p.length - p.present);
}

template <typename T>
Result<Array> ReadIntegers(const StripeStreams& stripe, uint32_t column, const DataTypePtr& type,
                           const Presence& p) {
  FLOE_ASSIGN_OR_RETURN(auto values, ReadInts(stripe, column, StreamKind::kData, p.present, true));
  return Make(type, p, Spread<T>(p, [&](int64_t j) { return static_cast<T>(values[j]); }));
}

template <typename T>
Result<Array> ReadFloats(const StripeStreams& stripe, uint32_t column, const DataTypePtr& type,
                         const Presence& p) {
  FLOE_ASSIGN_OR_RETURN(auto bytes, Need(stripe, column, StreamKind::kData, p.present, 1));
  if (bytes.size() / sizeof(T) < static_cast<size_t>(p.present)) {
    return CorruptData("{} of {} bytes cannot hold {} values", Where(column, StreamKind::kData),
                       bytes.size(), p.present);
  }
  return Make(type, p, Spread<T>(p, [&](int64_t j) {
                T value;
                std::memcpy(&value, bytes.data() + j * sizeof(T), sizeof(T));
                return value;
              }));
}

Result<Array> ReadBooleans(const StripeStreams& stripe, uint32_t column, const DataTypePtr& type,
                           const Presence& p) {
  FLOE_ASSIGN_OR_RETURN(auto bytes,
                        Need(stripe, column, StreamKind::kData, p.present, kMaxBitsPerByte));
  BufferBuilder dense;
  dense.Resize(bit_util::BytesForBits(p.present));
  FLOE_RETURN_IF_ERROR_CTX(DecodeBooleanRle(bytes, p.present, dense.mutable_data()),
                           Where(column, StreamKind::kData));
  if (p.present == p.length) return Make(type, p, dense.Finish());
  BufferBuilder out;
  out.Resize(bit_util::BytesForBits(p.length));
  int64_t next = 0;
  for (int64_t i = 0; i < p.length; ++i) {
    if (p.valid(i) && bit_util::GetBit(dense.data(), next++))
      bit_util::SetBit(out.mutable_data(), i);
  }
  return Make(type, p, out.Finish());
}

Result<Array> ReadTinyInts(const StripeStreams& stripe, uint32_t column, const DataTypePtr& type,
                           const Presence& p) {
  FLOE_ASSIGN_OR_RETURN(auto bytes,
                        Need(stripe, column, StreamKind::kData, p.present, kMaxBytesPerByte));
  std::vector<uint8_t> values(static_cast<size_t>(p.present));
  FLOE_RETURN_IF_ERROR_CTX(DecodeByteRle(bytes, p.present, values.data()),
                           Where(column, StreamKind::kData));
  return Make(type, p,
              Spread<int8_t>(p, [&](int64_t j) { return static_cast<int8_t>(values[j]); }));
}

// Offsets for the entries from the present entries' lengths; fails past 2 GiB.
Result<Buffer> Offsets(const Presence& p, const std::vector<int64_t>& lengths, uint32_t column,
                       int64_t* total) {
  BufferBuilder out;
  out.Resize((p.length + 1) * static_cast<int64_t>(sizeof(int32_t)));
  int32_t* offsets = out.mutable_data_as<int32_t>();
  int64_t sum = 0;
  int64_t next = 0;
  for (int64_t i = 0; i < p.length; ++i) {
    offsets[i] = static_cast<int32_t>(sum);
    if (p.valid(i)) sum += lengths[next++];
    if (sum > INT32_MAX) {
      return ResourceExhausted("column {} holds more than 2 GiB of values in one stripe", column);
    }
  }
  offsets[p.length] = static_cast<int32_t>(sum);
  *total = sum;
  return out.Finish();
}

Result<Array> ReadDirectBytes(const StripeStreams& stripe, uint32_t column, const DataTypePtr& type,
                              const Presence& p) {
  FLOE_ASSIGN_OR_RETURN(auto lengths, ReadCounts(stripe, column, StreamKind::kLength, p.present));
  int64_t total = 0;
  FLOE_ASSIGN_OR_RETURN(Buffer offsets, Offsets(p, lengths, column, &total));
  FLOE_ASSIGN_OR_RETURN(auto data, Need(stripe, column, StreamKind::kData, 0, 1));
  if (total > static_cast<int64_t>(data.size())) {
    return CorruptData("{} of {} bytes is shorter than its lengths' {}",
                       Where(column, StreamKind::kData), data.size(), total);
  }
  return Make(type, p, std::move(offsets), Buffer::CopyOf(data.data(), total));
}

Result<Array> ReadDictionaryBytes(const StripeStreams& stripe, uint32_t column,
                                  const DataTypePtr& type, const Presence& p) {
  const int64_t size = stripe.encodings[column].dictionary_size;
  FLOE_ASSIGN_OR_RETURN(auto lengths, ReadCounts(stripe, column, StreamKind::kLength, size));
  FLOE_ASSIGN_OR_RETURN(auto blob, Need(stripe, column, StreamKind::kDictionaryData, 0, 1));
  std::vector<int64_t> starts(static_cast<size_t>(size) + 1);
  for (int64_t i = 0; i < size; ++i) starts[i + 1] = starts[i] + lengths[i];
  if (starts[size] > static_cast<int64_t>(blob.size())) {
    return CorruptData("{} of {} bytes is shorter than its lengths' {}",
                       Where(column, StreamKind::kDictionaryData), blob.size(), starts[size]);
  }
  FLOE_ASSIGN_OR_RETURN(auto ids, ReadCounts(stripe, column, StreamKind::kData, p.present));
  std::vector<int64_t> value_lengths(ids.size());
  for (size_t j = 0; j < ids.size(); ++j) {
    if (ids[j] >= size) {
      return CorruptData("{} names entry {} of a dictionary of {}",
                         Where(column, StreamKind::kData), ids[j], size);
    }
    value_lengths[j] = lengths[ids[j]];
  }
  int64_t total = 0;
  FLOE_ASSIGN_OR_RETURN(Buffer offsets, Offsets(p, value_lengths, column, &total));
  BufferBuilder data;
  data.ResizeUninitialized(total);
  int64_t at = 0;
  for (int64_t id : ids) {
    if (lengths[id] == 0) continue;  // an empty dictionary has no memory to copy from or to
    std::memcpy(data.mutable_data() + at, blob.data() + starts[id], lengths[id]);
    at += lengths[id];
  }
  return Make(type, p, std::move(offsets), data.Finish());
}

Result<Array> ReadDecimals(const StripeStreams& stripe, uint32_t column, const DataTypePtr& type,
                           const Presence& p) {
  FLOE_ASSIGN_OR_RETURN(auto bytes, Need(stripe, column, StreamKind::kData, p.present, 1));
  FLOE_ASSIGN_OR_RETURN(auto scales,
                        ReadInts(stripe, column, StreamKind::kSecondary, p.present, true));
  std::vector<__int128> values(static_cast<size_t>(p.present));
  size_t pos = 0;
  for (int64_t j = 0; j < p.present; ++j) {
    unsigned __int128 raw = 0;
    for (int shift = 0;; shift += 7) {
      if (shift >= 128 || pos >= bytes.size()) {
        return CorruptData("{}: a decimal varint is cut off or too long at offset {}",
                           Where(column, StreamKind::kData), pos);
      }
      const auto byte = static_cast<uint8_t>(bytes[pos++]);
      raw |= static_cast<unsigned __int128>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) break;
    }
    __int128 value = static_cast<__int128>(raw >> 1) ^ -static_cast<__int128>(raw & 1);
    // Values carry their own scale; bring each to the column's.
    const int64_t shift = type->scale() - scales[j];
    if (shift < -38 || shift > 38) {
      return CorruptData("{}: a decimal of scale {} in a column of scale {}",
                         Where(column, StreamKind::kSecondary), scales[j], type->scale());
    }
    for (int64_t s = 0; s < shift; ++s) value *= 10;
    for (int64_t s = 0; s > shift; --s) value /= 10;
    values[j] = value;
  }
  return Make(type, p, Spread<__int128>(p, [&](int64_t j) { return values[j]; }));
}

Result<Array> ReadDates(const StripeStreams& stripe, uint32_t column, const DataTypePtr& type,
                        const Presence& p) {
  return ReadIntegers<int32_t>(stripe, column, type, p);
}

// local: a TIMESTAMP (the writer's wall clock), not a TIMESTAMP_INSTANT.
Result<Array> ReadTimestamps(const StripeStreams& stripe, uint32_t column, const DataTypePtr& type,
                             const Presence& p, bool local) {
  FLOE_ASSIGN_OR_RETURN(auto seconds, ReadInts(stripe, column, StreamKind::kData, p.present, true));
  FLOE_ASSIGN_OR_RETURN(auto nanos,
                        ReadInts(stripe, column, StreamKind::kSecondary, p.present, false));
  static constexpr int64_t kPow10[] = {1,      10,      100,      1000,      10000,
                                       100000, 1000000, 10000000, 100000000, 1000000000};
  const bool micros = type->unit() == TimeUnit::kMicro;
  // A TIMESTAMP counts from 2015-01-01 00:00:00 in the writer's zone, the instant `epoch`; its
  // value is the wall clock there, the instant plus the zone's offset at it.
  const TimeZone& zone = stripe.writer_zone;
  const bool shift = local && !zone.is_utc();
  const int64_t epoch =
      shift ? kOrcEpochSeconds - zone.OffsetAt(kOrcEpochSeconds - zone.OffsetAt(kOrcEpochSeconds))
            : kOrcEpochSeconds;
  std::vector<int64_t> values(static_cast<size_t>(p.present));
  for (int64_t j = 0; j < p.present; ++j) {
    // The low 3 bits say how many trailing decimal zeros (beyond one) were dropped. The spec's
    // nanoseconds are never negative, but ClickHouse writes times before 1970 as seconds
    // truncated toward zero and a negative fraction: both are read.
    const int zeros = static_cast<int>(nanos[j] & 7);
    const int64_t digits = nanos[j] >> 3;
    const int64_t nano = digits > 999999999 || digits < -999999999
                             ? digits
                             : digits * kPow10[zeros == 0 ? 0 : zeros + 1];
    if (nano > 999999999 || nano < -999999999) {
      return CorruptData("{} holds {} nanoseconds", Where(column, StreamKind::kSecondary), nano);
    }
    int64_t second = 0;
    if (__builtin_add_overflow(seconds[j], epoch, &second)) {
      return CorruptData("{}: timestamp seconds out of range", Where(column, StreamKind::kData));
    }
    // Java writers truncated the seconds of times before 1970 toward zero, yet wrote the positive
    // fraction below them: such a second is one too high when the fraction is a millisecond or
    // more (the Java reader's rule).
    if (second < 0 && nano > 999999) --second;
    if (shift && __builtin_add_overflow(second, zone.OffsetAt(second), &second)) {
      return CorruptData("{}: timestamp seconds out of range", Where(column, StreamKind::kData));
    }
    // Sub-unit digits are floored, negative fractions too.
    const int64_t fraction = micros ? (nano >= 0 ? nano / 1000 : -((999 - nano) / 1000)) : nano;
    int64_t value = 0;
    if (__builtin_mul_overflow(second, micros ? 1000000 : 1000000000, &value) ||
        __builtin_add_overflow(value, fraction, &value)) {
      return Unsupported("{}: timestamp {} s is out of range in {}",
                         Where(column, StreamKind::kData), second,
                         micros ? "microseconds" : "nanoseconds");
    }
    values[j] = value;
  }
  return Make(type, p, Spread<int64_t>(p, [&](int64_t j) { return values[j]; }));
}

}  // namespace

Result<Array> ReadColumn(const StripeStreams& stripe, uint32_t column, const DataTypePtr& type,
                         int64_t length, const uint8_t* parent_valid) {
  const Type& orc_type = (*stripe.types)[column];
  FLOE_ASSIGN_OR_RETURN(Presence p, ReadPresence(stripe, column, length, parent_valid));
  switch (orc_type.kind) {
    case TypeKind::kBoolean:
      return ReadBooleans(stripe, column, type, p);
    case TypeKind::kByte:
      return ReadTinyInts(stripe, column, type, p);
    case TypeKind::kShort:
      return ReadIntegers<int16_t>(stripe, column, type, p);
    case TypeKind::kInt:
      return ReadIntegers<int32_t>(stripe, column, type, p);
    case TypeKind::kLong:
      return ReadIntegers<int64_t>(stripe, column, type, p);
    case TypeKind::kFloat:
      return ReadFloats<float>(stripe, column, type, p);
    case TypeKind::kDouble:
      return ReadFloats<double>(stripe, column, type, p);
    case TypeKind::kString:
    case TypeKind::kVarchar:
    case TypeKind::kChar:
    case TypeKind::kBinary: {
      const auto encoding = stripe.encodings[column].kind;
      if (encoding == EncodingKind::kDictionary || encoding == EncodingKind::kDictionaryV2) {
        return ReadDictionaryBytes(stripe, column, type, p);
      }
      return ReadDirectBytes(stripe, column, type, p);
    }
    case TypeKind::kDecimal:
      return ReadDecimals(stripe, column, type, p);
    case TypeKind::kDate:
      return ReadDates(stripe, column, type, p);
    case TypeKind::kTimestamp:
    case TypeKind::kTimestampInstant:
      return ReadTimestamps(stripe, column, type, p, orc_type.kind == TypeKind::kTimestamp);
    case TypeKind::kStruct: {
      std::vector<Array> children;
      const uint8_t* valid = p.validity ? p.validity.data() : nullptr;
      for (size_t i = 0; i < orc_type.subtypes.size(); ++i) {
        FLOE_ASSIGN_OR_RETURN(Array child, ReadColumn(stripe, orc_type.subtypes[i],
                                                      type->field(i).type, length, valid));
        children.push_back(std::move(child));
      }
      return Make(type, p, {}, {}, std::move(children));
    }
    case TypeKind::kList:
    case TypeKind::kMap: {
      FLOE_ASSIGN_OR_RETURN(auto lengths,
                            ReadCounts(stripe, column, StreamKind::kLength, p.present));
      int64_t total = 0;
      FLOE_ASSIGN_OR_RETURN(Buffer offsets, Offsets(p, lengths, column, &total));
      if (orc_type.kind == TypeKind::kList) {
        FLOE_ASSIGN_OR_RETURN(Array elements, ReadColumn(stripe, orc_type.subtypes[0],
                                                         type->field(0).type, total, nullptr));
        return Make(type, p, std::move(offsets), {}, {std::move(elements)});
      }
      FLOE_ASSIGN_OR_RETURN(Array keys, ReadColumn(stripe, orc_type.subtypes[0],
                                                   type->key_field().type, total, nullptr));
      FLOE_ASSIGN_OR_RETURN(Array items, ReadColumn(stripe, orc_type.subtypes[1],
                                                    type->item_field().type, total, nullptr));
      const DataTypePtr& entries_type = type->field(0).type;
      Array entries(entries_type, total, {}, {}, {}, {std::move(keys), std::move(items)}, 0);
      return Make(type, p, std::move(offsets), {}, {std::move(entries)});
    }
    case TypeKind::kUnion:
      break;
  }
  return Unsupported("ORC column {} is a union, which floe does not read", column);
}

}  // namespace floe::orc
