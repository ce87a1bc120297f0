#include <cstring>

#include "floe/format/parquet/column_reader.h"
#include "floe/format/parquet/encoding/rle.h"
#include "floe/format/parquet/writer/page_levels_internal.h"

namespace floe::parquet {
namespace {

// Appends what encode adds behind its 4-byte length when length_prefix; returns the bytes added.
template <typename Encode>
size_t AppendLevels(bool length_prefix, std::vector<std::byte>& out, Encode encode) {
  const size_t start = out.size();
  if (length_prefix) out.resize(start + 4);
  encode();
  if (length_prefix) {
    auto size = static_cast<uint32_t>(out.size() - start - 4);
    std::memcpy(out.data() + start, &size, 4);
  }
  return out.size() - start;
}

}  // namespace

size_t PageLevels::AppendRepetition(bool length_prefix, std::vector<std::byte>& out) const {
  return AppendLevels(length_prefix, out,
                      [&] { EncodeRleBitPacked<int16_t>(reps_, LevelBitWidth(max_rep_), out); });
}

size_t PageLevels::AppendDefinition(int64_t entries, bool length_prefix,
                                    std::vector<std::byte>& out) const {
  return AppendLevels(length_prefix, out, [&] {
    if (!defs_lazy_) {
      EncodeRleBitPacked<int16_t>(defs_, LevelBitWidth(max_def_), out);
    } else if (entries > 0) {
      EncodeRleRun(static_cast<uint32_t>(max_def_), static_cast<size_t>(entries),
                   LevelBitWidth(max_def_), out);
    }
  });
}

}  // namespace floe::parquet
