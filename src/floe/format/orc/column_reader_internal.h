#pragma once

// Decodes the columns of one stripe into arrays, from the stripe's decompressed streams. A column
// reads `length` entries: a top-level column one per stripe row, a struct's fields one per entry
// of the struct (null where the struct is), a list's element column one per element. The
// column's PRESENT stream has a bit only for the entries whose parent is present, and its other
// streams values only for its own present entries; the reader spreads them out to the arrays'
// layout. Errors (kCorruptData) name the column and the stream.

#include <cstdint>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "floe/batch/array.h"
#include "floe/batch/data_type.h"
#include "floe/format/orc/metadata.h"
#include "floe/format/orc/stream_internal.h"
#include "floe/format/orc/time_zone_internal.h"
#include "floe/util/error.h"

namespace floe::orc {

struct StripeStreams {
  const std::vector<Type>* types = nullptr;
  std::vector<ColumnEncoding> encodings;                         // by column id
  std::map<std::pair<uint32_t, uint32_t>, StreamBytes> streams;  // by (column, stream kind)
  TimeUnit timestamp_unit = TimeUnit::kMicro;
  // The stripe's writer time zone: TIMESTAMP values are its wall clock.
  TimeZone writer_zone;

  const StreamBytes* Find(uint32_t column, StreamKind kind) const {
    auto it = streams.find({column, static_cast<uint32_t>(kind)});
    return it == streams.end() ? nullptr : &it->second;
  }
};

// parent_valid, when set, holds `length` bits: the entries whose parent is present.
Result<Array> ReadColumn(const StripeStreams& stripe, uint32_t column, const DataTypePtr& type,
                         int64_t length, const uint8_t* parent_valid);

}  // namespace floe::orc
