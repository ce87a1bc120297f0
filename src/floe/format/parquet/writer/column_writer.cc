#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <optional>
#include <type_traits>

#include "floe/format/parquet/encoding/delta_binary_packed.h"
#include "floe/format/parquet/encoding/plain.h"
#include "floe/format/parquet/encoding/rle.h"
#include "floe/format/parquet/writer/bloom_collector_internal.h"
#include "floe/format/parquet/writer/byte_array_encoding_internal.h"
#include "floe/format/parquet/writer/chunk_pages_internal.h"
#include "floe/format/parquet/writer/column_dictionary_internal.h"
#include "floe/format/parquet/writer/column_index_internal.h"
#include "floe/format/parquet/writer/column_writer_internal.h"
#include "floe/format/parquet/writer/page_levels_internal.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/format/parquet/writer/statistics_internal.h"
#include "floe/io/file_io.h"

namespace floe::parquet {
namespace {

void AppendBigEndian(__int128 value, int32_t width, std::string& out) {
  for (int32_t i = width - 1; i >= 0; --i) {
    out.push_back(static_cast<char>(static_cast<unsigned __int128>(value) >> (8 * i)));
  }
}

// The column writer of physical type P: takes the values of the leaf's entries, cuts pages at row
// boundaries, and chooses each page's encoding (dictionary until it outgrows its budget or cannot
// pay off, then PLAIN or a delta encoding). Its parts: the page's levels (PageLevels), the chunk's
// dictionary (ColumnDictionary), the byte array encodings (ByteArrayEncoder), the compressed pages
// (ChunkPages), statistics (ColumnStats), the page index (ColumnIndexBuilder) and the bloom filter
// (BloomCollector).
template <typename P>
class TypedColumnWriter final : public ColumnWriter {
 public:
  using Stats = ColumnStats<P>;
  static constexpr bool kBytes = std::is_same_v<P, ByteArray>;
  static constexpr bool kFloating = std::is_floating_point_v<P>;

  TypedColumnWriter(LeafSpec spec, const WriterOptions& options, PageBuffers& buffers)
      : ColumnWriter(std::move(spec)),
        options_(options),
        order_(spec_),
        levels_(spec_.max_def, spec_.max_rep),
        dictionary_(spec_.physical_type == PhysicalType::kByteArray),
        pages_(options, buffers.compressed),
        column_index_(spec_),
        body_(buffers.body),
        level_bytes_(buffers.levels) {
    dict_active_ = options.dictionary_enabled && !std::is_same_v<P, bool>;
    if constexpr (!std::is_same_v<P, bool>) {
      std::string dotted;
      for (const std::string& part : spec_.path) dotted += (dotted.empty() ? "" : ".") + part;
      auto it = options.bloom_filter_columns.find(dotted);
      if (it != options.bloom_filter_columns.end()) {
        bloom_.emplace(it->second, options.bloom_filter_max_bytes);
      }
    }
  }

  void Add(const Array& leaf, std::span<const LevelSlot> slots) override {
    for (const LevelSlot& slot : slots) {
      if (slot.rep == 0) {
        BeginRow();
        ++page_rows_;
      }
      if (spec_.max_def > 0) {
        levels_.MaterializeDefs(page_entries_);
        levels_.AddDef(slot.def);
      }
      if (spec_.max_rep > 0) levels_.AddRep(slot.rep);
      ++page_entries_;
      ++num_values_;
      if (slot.idx < 0) {
        ++page_.nulls;
        continue;
      }
      AddValue(leaf, slot.idx);
    }
  }

  void AddFlat(const Array& leaf) override { AddTopLevel(leaf, leaf.length(), nullptr); }

  void AddRows(const Array& leaf, std::span<const int64_t> rows) override {
    AddTopLevel(leaf, static_cast<int64_t>(rows.size()), rows.data());
  }

  int64_t BufferedBytes() const override {
    return pages_.bytes() + PageBytes() + (dict_active_ ? dictionary_.plain_bytes() : 0);
  }

  Result<ColumnChunk> FinishChunk(io::FileWriter& file, ChunkIndexes& indexes) override {
    const int64_t file_offset = file.position();
    std::vector<std::byte> dictionary_page;
    if (page_entries_ > 0 || num_values_ == 0) {
      FlushPage(/*chunk_end=*/true);  // an empty chunk has one empty page
    }
    if (!pages_.status()) return std::unexpected(pages_.status().error());
    ColumnMetaData meta;
    meta.type = spec_.physical_type;
    meta.path_in_schema = spec_.path;
    meta.codec = options_.codec;
    meta.num_values = num_values_;
    if constexpr (!std::is_same_v<P, bool>) {
      if (dict_used_) {
        std::vector<std::byte> plain;
        dictionary_.Encode(plain);
        PageHeader header;
        header.type = PageType::kDictionaryPage;
        DictionaryPageHeader dict;
        dict.num_values = static_cast<int32_t>(dictionary_.size());
        dict.encoding = Encoding::kPlain;
        header.dictionary_page_header = dict;
        meta.dictionary_page_offset = file_offset;
        meta.total_uncompressed_size = pages_.EncodePage(header, plain, {}, dictionary_page);
        pages_.AddEncoding(Encoding::kPlain);
      }
    }
    meta.data_page_offset = file_offset + static_cast<int64_t>(dictionary_page.size());
    column_index_.Finish(meta.data_page_offset, indexes);
    indexes.bloom_filter.clear();
    if (bloom_) indexes.bloom_filter = bloom_->Finish();
    FLOE_RETURN_IF_ERROR(file.Write(dictionary_page));
    FLOE_RETURN_IF_ERROR(pages_.WriteTo(file));
    meta.total_compressed_size = static_cast<int64_t>(dictionary_page.size()) + pages_.bytes();
    meta.total_uncompressed_size += pages_.uncompressed_bytes();
    meta.encodings.assign(pages_.encodings().begin(), pages_.encodings().end());
    meta.statistics = ChunkStatistics(chunk_);
    file_.Merge(chunk_, order_);
    column_size_ += meta.total_compressed_size;
    ColumnChunk result;
    result.file_offset = file_offset;
    result.meta_data = std::move(meta);
    ResetChunk();
    return result;
  }

  void FillMetrics(ColumnMetrics& m) const override {
    m.field_id = spec_.field_id;
    m.path = spec_.path;
    m.mode = spec_.metrics;
    m.column_size = column_size_;
    FillStatsMetrics(spec_, file_, m);
  }

 private:
  static constexpr int64_t kFlatRun = 256;
  static constexpr size_t kDictionaryProbeValues = 1024;

  // Pages and the dictionary fallback start at row boundaries only.
  void BeginRow() {
    if (dict_full_) {
      if (page_entries_ > 0) FlushPage();
      dict_active_ = false;
      dict_full_ = false;
    } else if (page_entries_ > 0 &&
               (page_rows_ >= options_.page_row_limit || PageBytes() >= options_.page_size_bytes)) {
      FlushPage();
    } else if (!dict_probed_ && indices_.size() >= kDictionaryProbeValues) {
      // Small chunks (a file per partition or per table) may never fill a page, and would hash
      // every value for a dictionary dropped at the end: values distinct from the start go now.
      dict_probed_ = true;
      MaybeDropDictionary(/*early=*/true);
    }
    if (!page_reserved_ && page_entries_ >= kReserveAfterEntries) ReservePage();
  }

  // Once a page holds kReserveAfterEntries entries, the buffers it uses get room for a whole page
  // (page_row_limit entries, at most page_size_bytes) at once instead of doubling their way
  // there: each doubling copies the page so far into fresh memory, which a writer of many open
  // files (one per table or partition) pays on the first page of every file. Capacity stays for
  // the pages after.
  static constexpr int64_t kReserveAfterEntries = 1024;
  void ReservePage() {
    page_reserved_ = true;
    auto capacity = [&](int64_t entry_bytes) {
      return static_cast<size_t>(std::max(
          page_entries_, std::min(options_.page_row_limit,
                                  options_.page_size_bytes / std::max<int64_t>(1, entry_bytes))));
    };
    levels_.Reserve(capacity(1));
    if (!indices_.empty()) indices_.reserve(capacity(1));
    if constexpr (kBytes) {
      if (!bytes_.lengths.empty()) {
        const int64_t average =
            static_cast<int64_t>(bytes_.data.size() / bytes_.lengths.size()) + 1;
        const size_t values = capacity(4 + average);
        bytes_.lengths.reserve(values);
        bytes_.data.reserve(values * static_cast<size_t>(average));
      }
    } else if constexpr (!std::is_same_v<P, bool>) {
      if (!plain_.empty()) plain_.reserve(capacity(sizeof(P)));
    }
  }

  P Extract(const Array& a, int64_t i) {
    if constexpr (std::is_same_v<P, bool>) {
      return a.GetBool(i);
    } else if constexpr (std::is_same_v<P, int32_t>) {
      switch (spec_.kind) {
        case TypeKind::kInt8:
          return a.Value<int8_t>(i);
        case TypeKind::kInt16:
          return a.Value<int16_t>(i);
        case TypeKind::kUInt8:
          return a.Value<uint8_t>(i);
        case TypeKind::kUInt16:
          return a.Value<uint16_t>(i);
        case TypeKind::kDecimal128:
          return static_cast<int32_t>(a.GetDecimal(i));
        default:
          return a.Value<int32_t>(i);
      }
    } else if constexpr (std::is_same_v<P, int64_t>) {
      if (spec_.kind == TypeKind::kDecimal128) return static_cast<int64_t>(a.GetDecimal(i));
      return a.Value<int64_t>(i);
    } else if constexpr (kFloating) {
      return a.Value<P>(i);
    } else {
      if (spec_.kind == TypeKind::kDecimal128) {
        scratch_.clear();
        AppendBigEndian(a.GetDecimal(i), spec_.type_length, scratch_);
        return scratch_;
      }
      if (spec_.kind == TypeKind::kFloat16) {
        uint16_t bits = a.Value<uint16_t>(i);
        scratch_.assign(reinterpret_cast<const char*>(&bits), 2);
        return scratch_;
      }
      return a.GetView(i);
    }
  }

  // The array row of the k-th entry of a top-level run: rows[k], or k itself without rows.
  static int64_t Row(const int64_t* rows, int64_t k) { return rows == nullptr ? k : rows[k]; }

  // n rows of a top-level leaf: rows[k] of the array for the k-th (rows == nullptr: row k).
  void AddTopLevel(const Array& leaf, int64_t n, const int64_t* rows) {
    const bool nullable = spec_.max_def > 0;
    const bool any_null = leaf.null_count() != 0;
    for (int64_t i = 0; i < n;) {
      BeginRow();
      // Rows go in runs between the page and dictionary checks; a page can pass its byte budget
      // by at most one run.
      int64_t run =
          std::min({n - i, kFlatRun, std::max<int64_t>(1, options_.page_row_limit - page_rows_)});
      if (any_null) {
        levels_.MaterializeDefs(page_entries_);
        for (int64_t k = i; k < i + run; ++k) {
          const int64_t idx = Row(rows, k);
          if (leaf.IsNull(idx)) {
            levels_.AddDef(0);
            ++page_.nulls;
            continue;
          }
          levels_.AddDef(1);
          AddValue(leaf, idx);
        }
      } else {
        if (nullable) levels_.AddMaxDefs(static_cast<size_t>(run));
        AddRun(leaf, rows, i, run);
      }
      page_rows_ += run;
      page_entries_ += run;
      num_values_ += run;
      i += run;
    }
  }

  void AddValue(const Array& leaf, int64_t idx) {
    P value = Extract(leaf, idx);
    if constexpr (kFloating) {
      if (std::isnan(value)) {
        ++page_.nans;
        StoreValue(value);
        return;
      }
    }
    AddNonNull(value);
  }

  // A value that is neither null nor NaN.
  void AddNonNull(P value) {
    ++page_.values;
    if constexpr (kBytes) {
      if (dict_active_) {
        ++page_values_;
        AddToDictionary(value);
        return;
      }
    }
    page_.UpdateBounds(value, order_);
    StoreValue(value);
  }

  // A byte array's dictionary index; a value already seen in this page cannot move its bounds, so
  // the comparisons run once per distinct value and page, not per value.
  void AddToDictionary(ByteArray value) requires kBytes {
    uint32_t index = StoreIndex(value);
    if (index >= page_seen_.size()) page_seen_.resize(index + 1024, 0);
    if (page_seen_[index] == page_epoch_) return;
    page_seen_[index] = page_epoch_;
    page_.UpdateBounds(value, order_);
  }

  // A run of non-null values of a top-level leaf, entries [begin, begin + count) of rows (the
  // leaf's rows [begin, begin + count) when rows is null): its bounds are found in one pass, and
  // values of a width or type the page does not store (int8, decimals), or chosen rows, are
  // gathered a run at a time.
  void AddRun(const Array& leaf, const int64_t* rows, int64_t begin, int64_t count) {
    if constexpr (kBytes) {
      if (spec_.kind == TypeKind::kString || spec_.kind == TypeKind::kBinary) {
        AddStringRun(leaf, rows, begin, count);
        return;
      }
    }
    if constexpr (kBytes || std::is_same_v<P, bool>) {
      for (int64_t k = begin; k < begin + count; ++k) AddValue(leaf, Row(rows, k));
    } else {
      P buffer[kFlatRun];
      const P* values = RunValues(leaf, rows, begin, count, buffer);
      if constexpr (kFloating) {
        for (int64_t k = 0; k < count; ++k) {
          if (std::isnan(values[k])) {
            for (int64_t j = begin; j < begin + count; ++j) AddValue(leaf, Row(rows, j));
            return;
          }
        }
      }
      P min = values[0], max = values[0];
      for (int64_t k = 1; k < count; ++k) {
        if (order_.Less(values[k], min)) min = values[k];
        if (order_.Less(max, values[k])) max = values[k];
      }
      page_.UpdateBounds(min, order_);
      page_.UpdateBounds(max, order_);
      page_.values += count;
      page_values_ += count;
      if (dict_active_) {
        for (int64_t k = 0; k < count; ++k) StoreIndex(values[k]);
        return;
      }
      plain_.insert(plain_.end(), values, values + count);
      if (bloom_) {
        for (int64_t k = 0; k < count; ++k) bloom_->Insert(BloomHash<P>(values[k]));
      }
    }
  }

  // AddRun of a string or binary leaf with 32-bit offsets.
  void AddStringRun(const Array& leaf, const int64_t* rows, int64_t begin,
                    int64_t count) requires kBytes {
    const int32_t* offsets = leaf.Offsets32().data();
    const char* data = reinterpret_cast<const char*>(leaf.data().data());
    auto value = [&](int64_t row) {
      return std::string_view(data + offsets[row],
                              static_cast<size_t>(offsets[row + 1] - offsets[row]));
    };
    page_.values += count;
    page_values_ += count;
    if (dict_active_) {
      for (int64_t k = begin; k < begin + count; ++k) AddToDictionary(value(Row(rows, k)));
      return;
    }
    for (int64_t k = begin; k < begin + count; ++k) {
      std::string_view v = value(Row(rows, k));
      page_.UpdateBounds(v, order_);
      bytes_.lengths.push_back(static_cast<int32_t>(v.size()));
      if (bloom_) bloom_->Insert(BloomHash<P>(v));
      if (rows != nullptr) bytes_.data.append(v);
    }
    // Consecutive rows' bytes are consecutive in the array too: one append.
    if (rows == nullptr) {
      bytes_.data.append(data + offsets[begin],
                         static_cast<size_t>(offsets[begin + count] - offsets[begin]));
    }
  }

  // The run's values as the page stores them: in the array, or gathered and converted into
  // buffer.
  const P* RunValues(const Array& leaf, const int64_t* rows, int64_t begin, int64_t count,
                     P* buffer) const {
    auto gather = [&]<typename From>(std::type_identity<From>) {
      const From* from = leaf.Values<From>().data();
      if (rows == nullptr) {
        for (int64_t k = 0; k < count; ++k) buffer[k] = static_cast<P>(from[begin + k]);
      } else {
        for (int64_t k = 0; k < count; ++k) buffer[k] = static_cast<P>(from[rows[begin + k]]);
      }
      return buffer;
    };
    if constexpr (std::is_integral_v<P>) {
      if (spec_.kind == TypeKind::kDecimal128) {
        const uint8_t* from = leaf.values().data() + leaf.offset() * 16;
        for (int64_t k = 0; k < count; ++k) {
          __int128 value;
          std::memcpy(&value, from + 16 * Row(rows, begin + k), 16);
          buffer[k] = static_cast<P>(value);
        }
        return buffer;
      }
    }
    if constexpr (std::is_same_v<P, int32_t>) {
      switch (spec_.kind) {
        case TypeKind::kInt8:
          return gather(std::type_identity<int8_t>());
        case TypeKind::kInt16:
          return gather(std::type_identity<int16_t>());
        case TypeKind::kUInt8:
          return gather(std::type_identity<uint8_t>());
        case TypeKind::kUInt16:
          return gather(std::type_identity<uint16_t>());
        default:
          break;
      }
    }
    if (rows == nullptr) return leaf.Values<P>().data() + begin;
    return gather(std::type_identity<P>());
  }

  void StoreValue(P value) {
    ++page_values_;
    if constexpr (!std::is_same_v<P, bool>) {
      if (dict_active_) StoreIndex(value);
      if (dict_active_) return;
      if (bloom_) bloom_->Insert(BloomHash<P>(value));
    }
    if constexpr (kBytes) {
      if (spec_.physical_type == PhysicalType::kByteArray) {
        bytes_.lengths.push_back(static_cast<int32_t>(value.size()));
      }
      bytes_.data.append(value);
    } else if constexpr (std::is_same_v<P, bool>) {
      bools_.push_back(value ? 1 : 0);
    } else {
      plain_.push_back(value);
    }
  }

  uint32_t StoreIndex(P value) {
    bool inserted;
    uint32_t index = dictionary_.Insert(value, inserted);
    if (inserted && bloom_) bloom_->Insert(BloomHash<P>(value));
    indices_.push_back(index);
    // Past its budget the dictionary closes with the current row; PLAIN follows.
    if (dictionary_.plain_bytes() > options_.dict_size_bytes) dict_full_ = true;
    return index;
  }

  int64_t PageBytes() const {
    int64_t values;
    if (!indices_.empty()) {
      values = static_cast<int64_t>(indices_.size() *
                                    std::max<size_t>(1, std::bit_width(DictSize())) / 8);
    } else if constexpr (kBytes) {
      values = static_cast<int64_t>(bytes_.data.size() + 4 * bytes_.lengths.size());
    } else if constexpr (std::is_same_v<P, bool>) {
      values = static_cast<int64_t>(bools_.size()) / 8;
    } else {
      values = static_cast<int64_t>(plain_.size() * sizeof(P));
    }
    return levels_.EstimatedBytes(page_entries_) + values;
  }

  size_t DictSize() const {
    if constexpr (std::is_same_v<P, bool>) {
      return 0;
    } else {
      return dictionary_.size();
    }
  }

  // After the first page of a chunk, the dictionary goes when it cannot pay off: nearly every value
  // distinct (the dictionary page repeats the values and the indices come on top), or, for
  // integers, DELTA_BINARY_PACKED smaller than dictionary and indices (sorted keys, dates). Hashing
  // the rest of the chunk would cost time for a larger file. The early probe, on the first
  // kDictionaryProbeValues values of a chunk, is stricter, because on so few values the dictionary
  // page's own size counts against it unfairly: it drops a dictionary of (almost) all distinct
  // values, or one of integers that DELTA_BINARY_PACKED halves (a column constant or sorted in a
  // table's or partition's small file, which would otherwise hash all its values for nothing).
  void MaybeDropDictionary(bool early = false) {
    if constexpr (!std::is_same_v<P, bool>) {
      if (!dict_active_ || dict_used_ || indices_.size() < kDictionaryProbeValues) return;
      bool drop =
          early ? DictSize() * 100 > indices_.size() * 99 : DictSize() * 10 > indices_.size() * 9;
      if constexpr (std::is_same_v<P, int32_t> || std::is_same_v<P, int64_t>) {
        if (!drop && options_.delta_encoding) {
          std::vector<P> page(indices_.size());
          for (size_t i = 0; i < indices_.size(); ++i) page[i] = dictionary_.value(indices_[i]);
          std::vector<std::byte> delta;
          EncodeDeltaBinaryPacked<P>(page, delta);
          size_t dictionary =
              indices_.size() * std::bit_width(DictSize()) / 8 + DictSize() * sizeof(P);
          drop = (early ? 2 * delta.size() : delta.size()) < dictionary;
        }
      }
      if (!drop) return;
      for (uint32_t index : indices_) {
        if constexpr (kBytes) {
          std::string_view value = dictionary_.value(index);
          if (spec_.physical_type == PhysicalType::kByteArray) {
            bytes_.lengths.push_back(static_cast<int32_t>(value.size()));
          }
          bytes_.data.append(value);
        } else {
          plain_.push_back(dictionary_.value(index));
        }
      }
      indices_.clear();
      dict_active_ = false;
      dict_full_ = false;
      dictionary_.Clear();
    }
  }

  // The page's values in the page's encoding, appended to values.
  Encoding EncodeValues(bool chunk_end, std::vector<std::byte>& values) {
    const size_t values_start = values.size();
    if (dict_active_) {
      int bit_width = std::max(1, static_cast<int>(std::bit_width(DictSize() - (DictSize() > 0))));
      values.push_back(static_cast<std::byte>(bit_width));
      EncodeRleBitPacked<uint32_t>(indices_, bit_width, values);
      dict_used_ = true;
      return Encoding::kRleDictionary;
    }
    if constexpr (kBytes) {
      if (spec_.physical_type != PhysicalType::kByteArray) {
        auto bytes = std::as_bytes(std::span(bytes_.data));
        values.insert(values.end(), bytes.begin(), bytes.end());
        return Encoding::kPlain;
      }
      return byte_arrays_.EncodePage(bytes_, chunk_end, options_.delta_encoding, pages_, values);
    } else if constexpr (std::is_same_v<P, bool>) {
      auto flags = std::make_unique<bool[]>(bools_.size());
      for (size_t i = 0; i < bools_.size(); ++i) flags[i] = bools_[i] != 0;
      EncodePlainBoolean(std::span<const bool>(flags.get(), bools_.size()), values);
      return Encoding::kPlain;
    } else {
      if constexpr (std::is_same_v<P, int32_t> || std::is_same_v<P, int64_t>) {
        // Sorted or slowly changing integers (ids, timestamps) shrink to a few bits per value,
        // which also spares the codec most of its work.
        if (options_.delta_encoding && plain_.size() >= 128) {
          EncodeDeltaBinaryPacked<P>(plain_, values);
          if (2 * (values.size() - values_start) <= plain_.size() * sizeof(P)) {
            return Encoding::kDeltaBinaryPacked;
          }
          values.resize(values_start);
        }
      }
      EncodePlain<P>(plain_, values);
      return Encoding::kPlain;
    }
  }

  // The page's levels and values are encoded into the file's page buffers (v1: levels then values
  // in body_, v2: levels in level_bytes_ and values in body_), so a page costs no allocation but
  // its own compressed bytes.
  void FlushPage(bool chunk_end = false) {
    MaybeDropDictionary();
    bool v2 = options_.data_page_v2;
    body_.clear();
    level_bytes_.clear();
    std::vector<std::byte>& levels = v2 ? level_bytes_ : body_;
    size_t rep_size = 0, def_size = 0;
    if (spec_.max_rep > 0) rep_size = levels_.AppendRepetition(!v2, levels);
    if (spec_.max_def > 0) def_size = levels_.AppendDefinition(page_entries_, !v2, levels);
    Encoding encoding = EncodeValues(chunk_end, body_);
    pages_.AddEncoding(encoding);
    pages_.AddEncoding(Encoding::kRle);

    PageHeader header;
    column_index_.AddPage(page_);
    if (v2) {
      header.type = PageType::kDataPageV2;
      DataPageHeaderV2 h;
      h.num_values = static_cast<int32_t>(page_entries_);
      h.num_nulls = static_cast<int32_t>(page_entries_ - page_values_);
      h.num_rows = static_cast<int32_t>(page_rows_);
      h.encoding = encoding;
      h.definition_levels_byte_length = static_cast<int32_t>(def_size);
      h.repetition_levels_byte_length = static_cast<int32_t>(rep_size);
      h.is_compressed = options_.codec != Codec::kUncompressed;
      header.data_page_header_v2 = h;
      column_index_.AddLocation(pages_.AddDataPage(header, body_, level_bytes_, chunk_rows_));
    } else {
      header.type = PageType::kDataPage;
      DataPageHeader h;
      h.num_values = static_cast<int32_t>(page_entries_);
      h.encoding = encoding;
      header.data_page_header = h;
      column_index_.AddLocation(pages_.AddDataPage(header, body_, {}, chunk_rows_));
    }
    chunk_rows_ += page_rows_;
    chunk_.Merge(page_, order_);
    page_ = Stats{};
    ++page_epoch_;
    levels_.Clear();
    indices_.clear();
    plain_.clear();
    bools_.clear();
    bytes_.data.clear();
    bytes_.lengths.clear();
    page_rows_ = 0;
    page_entries_ = 0;
    page_values_ = 0;
    page_reserved_ = false;
  }

  void ResetChunk() {
    pages_.Reset();
    chunk_ = Stats{};
    num_values_ = 0;
    chunk_rows_ = 0;
    dictionary_.Clear();
    dict_used_ = false;
    dict_full_ = false;
    byte_arrays_.Reset();
    dict_probed_ = false;
    dict_active_ = options_.dictionary_enabled && !std::is_same_v<P, bool>;
  }

  const WriterOptions& options_;
  ValueOrder<P> order_;
  // The open page.
  PageLevels levels_;
  std::vector<uint32_t> indices_;
  std::vector<P> plain_;
  std::vector<uint8_t> bools_;
  ByteArrayPage bytes_;  // byte arrays not dictionary-encoded
  // Per dictionary index, the last page (epoch) whose bounds include the value.
  std::vector<uint32_t> page_seen_;
  uint32_t page_epoch_ = 1;
  int64_t page_rows_ = 0, page_entries_ = 0, page_values_ = 0;
  bool page_reserved_ = false;  // ReservePage ran for the open page
  // The chunk.
  ColumnDictionary<P> dictionary_;
  bool dict_active_ = false, dict_used_ = false, dict_full_ = false, dict_probed_ = false;
  ByteArrayEncoder byte_arrays_;  // the chunk's choice for BYTE_ARRAY pages
  ChunkPages pages_;
  Stats page_, chunk_, file_;
  int64_t chunk_rows_ = 0;
  ColumnIndexBuilder<P> column_index_;
  std::optional<BloomCollector> bloom_;
  int64_t num_values_ = 0;  // entries (nulls included), as ColumnMetaData counts them
  int64_t column_size_ = 0;
  // The page being written (PageBuffers).
  std::vector<std::byte>& body_;
  std::vector<std::byte>& level_bytes_;
  std::string scratch_;
};

}  // namespace

std::unique_ptr<ColumnWriter> ColumnWriter::Make(LeafSpec spec, const WriterOptions& options,
                                                 PageBuffers& buffers) {
  switch (spec.physical_type) {
    case PhysicalType::kBoolean:
      return std::make_unique<TypedColumnWriter<bool>>(std::move(spec), options, buffers);
    case PhysicalType::kInt32:
      return std::make_unique<TypedColumnWriter<int32_t>>(std::move(spec), options, buffers);
    case PhysicalType::kInt64:
      return std::make_unique<TypedColumnWriter<int64_t>>(std::move(spec), options, buffers);
    case PhysicalType::kFloat:
      return std::make_unique<TypedColumnWriter<float>>(std::move(spec), options, buffers);
    case PhysicalType::kDouble:
      return std::make_unique<TypedColumnWriter<double>>(std::move(spec), options, buffers);
    default:
      return std::make_unique<TypedColumnWriter<ByteArray>>(std::move(spec), options, buffers);
  }
}

}  // namespace floe::parquet
