#include "floe/format/parquet/column_reader.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>

#include "floe/format/parquet/encoding/bit_packed.h"
#include "floe/format/parquet/encoding/byte_stream_split.h"
#include "floe/format/parquet/encoding/delta_binary_packed.h"
#include "floe/format/parquet/encoding/delta_byte_array.h"
#include "floe/format/parquet/encoding/delta_length_byte_array.h"
#include "floe/format/parquet/encoding/dictionary.h"
#include "floe/format/parquet/encoding/plain.h"
#include "floe/format/parquet/encoding/rle.h"
#include "floe/format/parquet/page_reader.h"

namespace floe::parquet {

int LevelBitWidth(int16_t max_level) {
  return max_level <= 0 ? 0 : std::bit_width(static_cast<uint16_t>(max_level));
}

// Levels of one page: streamed from the RLE hybrid, or (BIT_PACKED) unpacked for the whole page.
template <typename T>
struct ColumnChunkReader<T>::LevelDecoder {
  std::optional<RleBitPackedDecoder> rle;
  std::vector<int16_t> unpacked;
  size_t pos = 0;
};

namespace {

Status CheckChunk(const ColumnChunk& chunk, const ColumnDescriptor& column,
                  const std::string& context) {
  if (!chunk.meta_data) return CorruptData("{}: column chunk without metadata", context);
  if (chunk.meta_data->type != column.physical_type) {
    return CorruptData("{}: chunk of type {} for a {} column", context,
                       PhysicalTypeName(chunk.meta_data->type),
                       PhysicalTypeName(column.physical_type));
  }
  return Ok();
}

}  // namespace

template <typename T>
ColumnChunkReader<T>::ColumnChunkReader(std::unique_ptr<PageReader> pages,
                                        const ColumnDescriptor& column, int64_t num_values)
    : pages_(std::move(pages)), column_(column), num_values_(num_values) {}

template <typename T>
ColumnChunkReader<T>::~ColumnChunkReader() = default;

template <typename T>
Result<std::unique_ptr<ColumnChunkReader<T>>> ColumnChunkReader<T>::Make(
    const RandomAccessSource& source, const ColumnChunk& chunk, const ColumnDescriptor& column,
    std::string context, std::string_view created_by) {
  FLOE_RETURN_IF_ERROR(CheckChunk(chunk, column, context));
  FLOE_ASSIGN_OR_RETURN(auto pages,
                        PageReader::Make(source, *chunk.meta_data, std::move(context), created_by));
  return std::make_unique<ColumnChunkReader<T>>(std::move(pages), column,
                                                chunk.meta_data->num_values);
}

template <typename T>
Result<std::unique_ptr<ColumnChunkReader<T>>> ColumnChunkReader<T>::MakeSelected(
    const RandomAccessSource& source, const ColumnChunk& chunk, const ColumnDescriptor& column,
    std::string context, std::string_view created_by, ChunkRowSelection row_selection) {
  const OffsetIndex* offset_index = row_selection.offset_index;
  std::vector<RowRange>& rows = row_selection.rows;
  if (column.max_repetition_level > 0) {
    return InvalidArgument("{}: a row selection needs a column without repetition", context);
  }
  FLOE_RETURN_IF_ERROR(CheckChunk(chunk, column, context));
  std::optional<PageSelection> selection;
  if (offset_index != nullptr && !offset_index->page_locations.empty()) {
    selection.emplace();
    selection->pages = offset_index->page_locations;
    const auto& pages = selection->pages;
    const int64_t num_rows = chunk.meta_data->num_values;
    size_t range = 0;
    for (size_t i = 0; i < pages.size(); ++i) {
      const int64_t first = pages[i].first_row_index;
      const int64_t end = i + 1 < pages.size() ? pages[i + 1].first_row_index : num_rows;
      if (first < 0 || end < first || (i == 0 && first != 0)) {
        return CorruptData("{}: offset index: page {} starts at row {}", context, i, first);
      }
      while (range < rows.size() && rows[range].end <= first) ++range;
      selection->read.push_back(range < rows.size() && rows[range].begin < end);
    }
  }
  FLOE_ASSIGN_OR_RETURN(auto pages,
                        PageReader::Make(source, *chunk.meta_data, std::move(context), created_by,
                                         selection ? &*selection : nullptr));
  auto reader =
      std::make_unique<ColumnChunkReader<T>>(std::move(pages), column, chunk.meta_data->num_values);
  reader->selected_ = true;
  reader->rows_ = std::move(rows);
  if (selection) reader->page_locations_ = std::move(selection->pages);
  return reader;
}

template <typename T>
Status ColumnChunkReader<T>::ReadDictionary(PageBuffer data, const DictionaryPageHeader& header) {
  if (header.encoding != Encoding::kPlain && header.encoding != Encoding::kPlainDictionary) {
    return Unsupported("dictionary page encoded {}", EncodingName(header.encoding));
  }
  // PLAIN takes at least a bit per boolean, four bytes per byte array (its length) and the width
  // of other types: a larger count is corrupt, and this bounds the allocation.
  uint64_t max_values = data.size() * 8;
  if constexpr (std::is_same_v<T, ByteArray>) {
    const bool fixed = column_.physical_type == PhysicalType::kFixedLenByteArray;
    if (!fixed) max_values = data.size() / 4;
    if (fixed && column_.type_length > 0) max_values = data.size() / column_.type_length;
  } else if constexpr (!std::is_same_v<T, bool>) {
    max_values = data.size() / sizeof(T);
  }
  if (header.num_values < 0 || static_cast<uint64_t>(header.num_values) > max_values) {
    return CorruptData("dictionary page of {} values in {} bytes", header.num_values, data.size());
  }
  dictionary_data_ = std::move(data);
  dictionary_size_ = static_cast<size_t>(header.num_values);
  dictionary_ = std::make_unique<T[]>(dictionary_size_);
  FLOE_ASSIGN_OR_RETURN(auto decoder, MakeValueDecoder(Encoding::kPlain, dictionary_data_));
  FLOE_RETURN_IF_ERROR_CTX(decoder->Decode(std::span(dictionary_.get(), dictionary_size_)),
                           "dictionary page");
  has_dictionary_ = true;
  return Ok();
}

template <typename T>
Result<std::unique_ptr<ValueDecoder<T>>> ColumnChunkReader<T>::MakeValueDecoder(
    Encoding encoding, std::span<const std::byte> data) {
  const bool fixed = column_.physical_type == PhysicalType::kFixedLenByteArray;
  switch (encoding) {
    case Encoding::kPlain:
      if constexpr (std::is_same_v<T, bool>) {
        return MakePlainBooleanDecoder(data);
      } else if constexpr (std::is_same_v<T, ByteArray>) {
        if (fixed) return MakePlainFixedLenByteArrayDecoder(data, column_.type_length);
        return MakePlainByteArrayDecoder(data);
      } else {
        return MakePlainDecoder<T>(data);
      }
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary:
      if (!has_dictionary_) return CorruptData("dictionary-encoded page without a dictionary page");
      return MakeDictionaryDecoder<T>(std::span<const T>(dictionary_.get(), dictionary_size_),
                                      data);
    case Encoding::kRle:
      if constexpr (std::is_same_v<T, bool>) return MakeRleBooleanDecoder(data);
      break;
    case Encoding::kDeltaBinaryPacked:
      if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
        FLOE_ASSIGN_OR_RETURN(auto decoder, DeltaBinaryPackedDecoder<T>::Make(data));
        return std::unique_ptr<ValueDecoder<T>>(std::move(decoder));
      }
      break;
    case Encoding::kDeltaLengthByteArray:
      if constexpr (std::is_same_v<T, ByteArray>) {
        if (fixed) break;
        FLOE_ASSIGN_OR_RETURN(auto decoder, DeltaLengthByteArrayDecoder::Make(data));
        return std::unique_ptr<ValueDecoder<T>>(std::move(decoder));
      }
      break;
    case Encoding::kDeltaByteArray:
      if constexpr (std::is_same_v<T, ByteArray>) {
        FLOE_ASSIGN_OR_RETURN(auto decoder, DeltaByteArrayDecoder::Make(data));
        return std::unique_ptr<ValueDecoder<T>>(std::move(decoder));
      }
      break;
    case Encoding::kByteStreamSplit:
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
        return MakeByteStreamSplitDecoder<T>(data, data.size() / sizeof(T));
      } else if constexpr (std::is_same_v<T, ByteArray>) {
        if (!fixed) break;
        return MakeByteStreamSplitFixedLenDecoder(
            data, data.size() / static_cast<size_t>(column_.type_length), column_.type_length);
      }
      break;
    default:
      break;
  }
  return Unsupported("encoding {} for a {} column", EncodingName(encoding),
                     PhysicalTypeName(column_.physical_type));
}

namespace {

// Sets up a level decoder over the bytes at the front of `data` (data page v1): RLE with a
// 4-byte length prefix, or BIT_PACKED. Returns the bytes taken.
template <typename LevelDecoder>
Result<size_t> InitV1Levels(LevelDecoder& decoder, Encoding encoding, int16_t max_level,
                            std::span<const std::byte> data, size_t num_values) {
  int width = LevelBitWidth(max_level);
  if (encoding == Encoding::kRle) {
    if (data.size() < 4) return CorruptData("levels: no length prefix");
    uint32_t length = 0;
    std::memcpy(&length, data.data(), 4);
    if (length > data.size() - 4) {
      return CorruptData("levels: {} bytes announced, {} in the page", length, data.size() - 4);
    }
    FLOE_ASSIGN_OR_RETURN(auto rle, RleBitPackedDecoder::Make(data.subspan(4, length), width));
    decoder.rle.emplace(std::move(rle));
    return size_t{4} + length;
  }
  if (encoding == Encoding::kBitPacked) {
    if ((num_values * static_cast<size_t>(width) + 7) / 8 > data.size()) {
      return CorruptData("BIT_PACKED levels: {} levels do not fit in {} bytes", num_values,
                         data.size());
    }
    decoder.unpacked.resize(num_values);
    return DecodeBitPackedLevels(data, width, decoder.unpacked);
  }
  return Unsupported("level encoding {}", EncodingName(encoding));
}

}  // namespace

template <typename T>
Result<bool> ColumnChunkReader<T>::NextDataPage() {
  while (true) {
    // Like other readers, stop once the chunk's values are all read: some writers leave bytes
    // after the last page inside the chunk's declared size, and empty chunks may have no pages
    // at the offsets they name.
    if (levels_read_ >= num_values_) return false;
    FLOE_ASSIGN_OR_RETURN(std::optional<Page> page, pages_->Next());
    if (!page) {
      // A selection leaves pages out on purpose; otherwise the pages must hold what the metadata
      // says, or the columns of a row group would silently disagree.
      if (!selected_) {
        return CorruptData(
            "{}: the chunk's pages end after {} of the {} values its metadata holds (at offset {})",
            pages_->context(), levels_read_, num_values_, pages_->end_offset());
      }
      return false;
    }
    page_offset_ = page->offset;
    auto where = [&](Error& e) -> Error& {
      return e.AddContext(fmt::format("{}: page at offset {}", pages_->context(), page_offset_));
    };
    const PageHeader& h = page->header;
    if (h.type == PageType::kDictionaryPage) {
      if (has_dictionary_) {
        return CorruptData("{}: second dictionary page at offset {}", pages_->context(),
                           page_offset_);
      }
      auto status = ReadDictionary(std::move(page->data), *h.dictionary_page_header);
      if (!status) return std::unexpected(std::move(where(status.error())));
      continue;
    }
    if (!page_locations_.empty()) {
      auto at = std::lower_bound(
          page_locations_.begin(), page_locations_.end(), page_offset_,
          [](const PageLocation& location, int64_t offset) { return location.offset < offset; });
      if (at == page_locations_.end() || at->offset != page_offset_) {
        return CorruptData("{}: data page at offset {} is not in the offset index",
                           pages_->context(), page_offset_);
      }
      levels_read_ = at->first_row_index;
    }
    page_data_ = std::move(page->data);
    std::span<const std::byte> data = page_data_;
    def_decoder_ = std::make_unique<LevelDecoder>();
    rep_decoder_ = std::make_unique<LevelDecoder>();
    int32_t num_values = 0;
    Encoding encoding;
    auto status = [&]() -> Status {
      if (h.type == PageType::kDataPage) {
        const DataPageHeader& d = *h.data_page_header;
        num_values = d.num_values;
        encoding = d.encoding;
        if (num_values < 0) return CorruptData("{} values", num_values);
        size_t pos = 0;
        if (column_.max_repetition_level > 0) {
          FLOE_ASSIGN_OR_RETURN(size_t n, InitV1Levels(*rep_decoder_, d.repetition_level_encoding,
                                                       column_.max_repetition_level, data,
                                                       static_cast<size_t>(num_values)));
          pos += n;
        }
        if (column_.max_definition_level > 0) {
          FLOE_ASSIGN_OR_RETURN(
              size_t n,
              InitV1Levels(*def_decoder_, d.definition_level_encoding, column_.max_definition_level,
                           data.subspan(pos), static_cast<size_t>(num_values)));
          pos += n;
        }
        data = data.subspan(pos);
      } else {
        const DataPageHeaderV2& d = *h.data_page_header_v2;
        num_values = d.num_values;
        encoding = d.encoding;
        if (num_values < 0 || d.num_nulls < 0 || d.num_nulls > num_values) {
          return CorruptData("{} values with {} nulls", num_values, d.num_nulls);
        }
        auto rep_length = static_cast<size_t>(d.repetition_levels_byte_length);
        auto def_length = static_cast<size_t>(d.definition_levels_byte_length);
        if (column_.max_repetition_level > 0) {
          FLOE_ASSIGN_OR_RETURN(
              auto rle, RleBitPackedDecoder::Make(data.first(rep_length),
                                                  LevelBitWidth(column_.max_repetition_level)));
          rep_decoder_->rle.emplace(std::move(rle));
        }
        if (column_.max_definition_level > 0) {
          FLOE_ASSIGN_OR_RETURN(
              auto rle, RleBitPackedDecoder::Make(data.subspan(rep_length, def_length),
                                                  LevelBitWidth(column_.max_definition_level)));
          def_decoder_->rle.emplace(std::move(rle));
        }
        data = data.subspan(rep_length + def_length);
      }
      FLOE_ASSIGN_OR_RETURN(values_, MakeValueDecoder(encoding, data));
      return Ok();
    }();
    if (!status) return std::unexpected(std::move(where(status.error())));
    if (num_values > num_values_ - levels_read_) {
      return CorruptData("{}: page at offset {} holds {} values, the chunk's metadata {} more",
                         pages_->context(), page_offset_, num_values, num_values_ - levels_read_);
    }
    page_levels_left_ = static_cast<size_t>(num_values);
    if (page_levels_left_ > 0) return true;
  }
}

template <typename T>
Status ColumnChunkReader<T>::DecodeLevels(LevelDecoder& decoder, int16_t max_level,
                                          std::span<int16_t> out) {
  if (decoder.rle) {
    FLOE_RETURN_IF_ERROR(decoder.rle->Decode(out));
  } else {
    if (out.size() > decoder.unpacked.size() - decoder.pos) {
      return CorruptData("fewer levels than values");
    }
    std::copy_n(decoder.unpacked.begin() + static_cast<ptrdiff_t>(decoder.pos), out.size(),
                out.begin());
    decoder.pos += out.size();
  }
  if (!out.empty()) {
    int16_t max = *std::max_element(out.begin(), out.end());
    int16_t min = *std::min_element(out.begin(), out.end());
    if (max > max_level || min < 0) {
      return CorruptData("level {} outside 0..{}", max > max_level ? max : min, max_level);
    }
  }
  return Ok();
}

template <typename T>
Result<BatchCounts> ColumnChunkReader<T>::ReadPage(size_t n, int16_t* def_levels,
                                                   int16_t* rep_levels, T* values) {
  BatchCounts counts;
  auto status = [&]() -> Status {
    size_t present = n;
    if (column_.max_repetition_level > 0) {
      if (rep_levels == nullptr) {
        scratch_levels_.resize(n);
        rep_levels = scratch_levels_.data();
      }
      FLOE_RETURN_IF_ERROR_CTX(
          DecodeLevels(*rep_decoder_, column_.max_repetition_level, std::span(rep_levels, n)),
          "repetition levels");
      if (levels_read_ == 0 && rep_levels[0] != 0) {
        return CorruptData("the first repetition level is {}, not 0", rep_levels[0]);
      }
    }
    if (column_.max_definition_level > 0) {
      if (def_levels == nullptr) {
        scratch_levels_.resize(n);
        def_levels = scratch_levels_.data();
      }
      FLOE_RETURN_IF_ERROR_CTX(
          DecodeLevels(*def_decoder_, column_.max_definition_level, std::span(def_levels, n)),
          "definition levels");
      present =
          static_cast<size_t>(std::count(def_levels, def_levels + n, column_.max_definition_level));
    }
    FLOE_RETURN_IF_ERROR_CTX(values_->Decode(std::span(values, present)), "values");
    counts.levels = n;
    counts.values = present;
    return Ok();
  }();
  if (!status) {
    return std::unexpected(std::move(status.error().AddContext(
        fmt::format("{}: page at offset {}", pages_->context(), page_offset_))));
  }
  page_levels_left_ -= n;
  levels_read_ += static_cast<int64_t>(n);
  return counts;
}

template <typename T>
Status ColumnChunkReader<T>::SkipInPage(size_t n) {
  constexpr size_t kPiece = 1024;
  if (!skipped_values_) skipped_values_ = std::make_unique<T[]>(kPiece);
  while (n > 0) {
    const size_t piece = std::min(n, kPiece);
    FLOE_RETURN_IF_ERROR(ReadPage(piece, nullptr, nullptr, skipped_values_.get()));
    n -= piece;
  }
  return Ok();
}

template <typename T>
Result<BatchCounts> ColumnChunkReader<T>::ReadBatch(size_t max_levels, int16_t* def_levels,
                                                    int16_t* rep_levels, T* values) {
  while (max_levels > 0) {
    if (page_levels_left_ == 0) {
      FLOE_ASSIGN_OR_RETURN(bool more, NextDataPage());
      if (!more) break;
    }
    // A batch never crosses a page: byte-array views point into the current page.
    size_t n = std::min(max_levels, page_levels_left_);
    if (selected_) {
      const int64_t row = levels_read_;
      while (range_ < rows_.size() && rows_[range_].end <= row) ++range_;
      if (range_ == rows_.size()) break;
      if (row < rows_[range_].begin) {
        FLOE_RETURN_IF_ERROR(SkipInPage(static_cast<size_t>(std::min<int64_t>(
            rows_[range_].begin - row, static_cast<int64_t>(page_levels_left_)))));
        continue;
      }
      n = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(n), rows_[range_].end - row));
    }
    return ReadPage(n, def_levels, rep_levels, values);
  }
  return BatchCounts{};
}

template class ColumnChunkReader<bool>;
template class ColumnChunkReader<int32_t>;
template class ColumnChunkReader<int64_t>;
template class ColumnChunkReader<Int96>;
template class ColumnChunkReader<float>;
template class ColumnChunkReader<double>;
template class ColumnChunkReader<ByteArray>;

}  // namespace floe::parquet
