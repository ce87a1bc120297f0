#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <set>
#include <type_traits>

#include "floe/format/compression/codec.h"
#include "floe/format/parquet/bloom_filter.h"
#include "floe/format/parquet/column_reader.h"
#include "floe/format/parquet/encoding/delta_binary_packed.h"
#include "floe/format/parquet/encoding/delta_byte_array.h"
#include "floe/format/parquet/encoding/plain.h"
#include "floe/format/parquet/encoding/rle.h"
#include "floe/format/parquet/metadata_thrift.h"
#include "floe/format/parquet/writer/bounds_internal.h"
#include "floe/format/parquet/writer/column_writer_internal.h"
#include "floe/format/parquet/writer/dictionary_table_internal.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/io/file_io.h"

namespace floe::parquet {
namespace {

compression::Codec ToCompressionCodec(Codec codec) {
  switch (codec) {
    case Codec::kSnappy:
      return compression::Codec::kSnappy;
    case Codec::kGzip:
      return compression::Codec::kGzip;
    case Codec::kZstd:
      return compression::Codec::kZstd;
    case Codec::kLz4Raw:
      return compression::Codec::kLz4Raw;
    default:
      return compression::Codec::kUncompressed;
  }
}

float HalfToFloat(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    magnitude = mantissa ? NAN : INFINITY;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), static_cast<int>(exponent) - 25);
  }
  return sign ? -magnitude : magnitude;
}

void AppendBigEndian(__int128 value, int32_t width, std::string& out) {
  for (int32_t i = width - 1; i >= 0; --i) {
    out.push_back(static_cast<char>(static_cast<unsigned __int128>(value) >> (8 * i)));
  }
}

// Big-endian two's complement order: the first byte signed, the rest unsigned.
bool DecimalBytesLess(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return a.size() < b.size();
  auto a0 = static_cast<signed char>(a[0]), b0 = static_cast<signed char>(b[0]);
  if (a0 != b0) return a0 < b0;
  return a.substr(1) < b.substr(1);
}

template <typename P>
struct Physical {
  using Stored = P;
};
template <>
struct Physical<ByteArray> {
  using Stored = std::string;
};

template <typename P>
class TypedColumnWriter final : public ColumnWriter {
 public:
  using Stored = typename Physical<P>::Stored;
  using Bits = std::conditional_t<sizeof(P) <= 4, uint32_t, uint64_t>;
  static constexpr bool kBytes = std::is_same_v<P, ByteArray>;
  static constexpr bool kFloating = std::is_floating_point_v<P>;

  TypedColumnWriter(LeafSpec spec, const WriterOptions& options, PageBuffers& buffers)
      : ColumnWriter(std::move(spec)),
        options_(options),
        body_(buffers.body),
        levels_(buffers.levels),
        compressed_(buffers.compressed) {
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
        MaterializeDefs();
        defs_.push_back(slot.def);
      }
      if (spec_.max_rep > 0) reps_.push_back(slot.rep);
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
    return pages_bytes_ + PageBytes() + (dict_active_ ? dict_bytes_ : 0);
  }

  Result<ColumnChunk> FinishChunk(io::FileWriter& file, ChunkIndexes& indexes) override {
    const int64_t file_offset = file.position();
    std::vector<std::byte> out;
    if (page_entries_ > 0 || num_values_ == 0) {
      FlushPage(/*chunk_end=*/true);  // an empty chunk has one empty page
    }
    if (!status_) return std::unexpected(status_.error());
    ColumnMetaData meta;
    meta.type = spec_.physical_type;
    meta.path_in_schema = spec_.path;
    meta.codec = options_.codec;
    meta.num_values = num_values_;
    size_t start = out.size();
    if (dict_used_) {
      std::vector<std::byte> plain;
      EncodeDictionary(plain);
      PageHeader header;
      header.type = PageType::kDictionaryPage;
      DictionaryPageHeader dict;
      dict.num_values = static_cast<int32_t>(DictSize());
      dict.encoding = Encoding::kPlain;
      header.dictionary_page_header = dict;
      meta.dictionary_page_offset = file_offset;
      WritePage(header, plain, {}, out, meta);
      encodings_.insert(Encoding::kPlain);
    }
    meta.data_page_offset = file_offset + static_cast<int64_t>(out.size() - start);
    for (PageLocation& location : offset_index_.page_locations) {
      location.offset += meta.data_page_offset;
    }
    indexes.offset_index = std::move(offset_index_);
    indexes.column_index.reset();
    if (column_index_valid_) {
      column_index_.boundary_order = BoundaryOrderOfPages();
      indexes.column_index = std::move(column_index_);
    }
    indexes.bloom_filter.clear();
    if (bloom_) indexes.bloom_filter = bloom_->Finish();
    // Pages go to the file one by one: a chunk never sits in memory twice.
    FLOE_RETURN_IF_ERROR(file.Write(out));
    for (const std::vector<std::byte>& page : pages_) FLOE_RETURN_IF_ERROR(file.Write(page));
    meta.total_compressed_size = static_cast<int64_t>(out.size() - start) + pages_bytes_;
    meta.total_uncompressed_size = pages_uncompressed_ + meta.total_uncompressed_size;
    meta.encodings.assign(encodings_.begin(), encodings_.end());
    meta.statistics = ChunkStatistics();
    file_.Merge(chunk_, *this);
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
    if (spec_.metrics.kind == MetricsMode::Kind::kNone) return;
    m.value_count = file_.values + file_.nulls + file_.nans;
    m.null_count = file_.nulls;
    if (kFloating) m.nan_count = file_.nans;
    if (spec_.metrics.kind == MetricsMode::Kind::kCounts || !file_.has_minmax) return;
    std::string lower = EncodeStat(file_.min), upper = EncodeStat(file_.max);
    bool truncatable = kBytes && spec_.physical_type == PhysicalType::kByteArray;
    if (spec_.metrics.kind == MetricsMode::Kind::kTruncate && truncatable) {
      bool utf8 = spec_.kind == TypeKind::kString || spec_.kind == TypeKind::kLargeString;
      m.lower_bound = TruncateLowerBound(lower, spec_.metrics.truncate_length, utf8);
      m.upper_bound = TruncateUpperBound(upper, spec_.metrics.truncate_length, utf8);
    } else {
      m.lower_bound = std::move(lower);
      m.upper_bound = std::move(upper);
    }
  }

 private:
  static constexpr int64_t kFlatRun = 256;

  // Collects the distinct hashes of a chunk to size its filter by their number, up to the largest
  // filter allowed; beyond that it fills a filter of the largest size directly.
  class BloomCollector {
   public:
    BloomCollector(double fpp, int64_t max_bytes)
        : fpp_(fpp), max_bytes_(static_cast<size_t>(max_bytes)) {}
    void Insert(uint64_t hash) {
      if (full_) {
        full_->Insert(hash);
        return;
      }
      bool inserted;
      distinct_.Insert(hash, inserted);
      if (!inserted) return;
      hashes_.push_back(hash);
      if (hashes_.size() % 4096 == 0 &&
          SplitBlockBloomFilter::OptimalBytes(hashes_.size(), fpp_, max_bytes_) >=
              std::bit_floor(max_bytes_)) {
        full_.emplace(SplitBlockBloomFilter::OptimalBytes(hashes_.size(), fpp_, max_bytes_));
        for (uint64_t h : hashes_) full_->Insert(h);
        hashes_ = {};
        distinct_.Clear();
      }
    }
    // The filter's header and bitset; resets for the next chunk.
    std::vector<std::byte> Finish() {
      SplitBlockBloomFilter filter =
          full_ ? std::move(*full_)
                : SplitBlockBloomFilter(
                      SplitBlockBloomFilter::OptimalBytes(hashes_.size(), fpp_, max_bytes_));
      if (!full_) {
        for (uint64_t h : hashes_) filter.Insert(h);
      }
      full_.reset();
      hashes_.clear();
      distinct_.Clear();
      BloomFilterHeader header;
      header.num_bytes = static_cast<int32_t>(filter.num_bytes());
      std::vector<std::byte> out = EncodeBloomFilterHeader(header);
      out.insert(out.end(), filter.bytes().begin(), filter.bytes().end());
      return out;
    }

   private:
    double fpp_;
    size_t max_bytes_;
    FixedDictionaryTable<uint64_t> distinct_;
    std::vector<uint64_t> hashes_;
    std::optional<SplitBlockBloomFilter> full_;
  };

  uint64_t BloomHash(P value) const {
    if constexpr (kBytes) {
      return BloomHashBytes(value);
    } else if constexpr (std::is_same_v<P, int32_t>) {
      return BloomHashInt32(value);
    } else if constexpr (std::is_same_v<P, int64_t>) {
      return BloomHashInt64(value);
    } else if constexpr (std::is_same_v<P, float>) {
      return BloomHashFloat(value);
    } else if constexpr (std::is_same_v<P, double>) {
      return BloomHashDouble(value);
    } else {
      return 0;
    }
  }

  // The order of the pages' bounds, for readers that binary-search the column index.
  BoundaryOrder BoundaryOrderOfPages() const {
    bool ascending = true, descending = true;
    const Stored* last_min = nullptr;
    const Stored* last_max = nullptr;
    for (size_t i = 0; i < page_bounds_.size(); ++i) {
      if (!page_bounds_[i].has_minmax) continue;
      if (last_min != nullptr) {
        if (Less(page_bounds_[i].min, *last_min) || Less(page_bounds_[i].max, *last_max)) {
          ascending = false;
        }
        if (Less(*last_min, page_bounds_[i].min) || Less(*last_max, page_bounds_[i].max)) {
          descending = false;
        }
      }
      last_min = &page_bounds_[i].min;
      last_max = &page_bounds_[i].max;
    }
    if (ascending) return BoundaryOrder::kAscending;
    if (descending) return BoundaryOrder::kDescending;
    return BoundaryOrder::kUnordered;
  }

  // The page's entry in the chunk's column index; a page of NaNs only has no bounds to give, so
  // the chunk gets no column index.
  void AddPageToColumnIndex() {
    bool null_page = !page_.has_minmax && page_.values == 0 && page_.nans == 0;
    if (!page_.has_minmax && !null_page) column_index_valid_ = false;
    column_index_.null_pages.push_back(null_page);
    column_index_.null_counts.push_back(page_.nulls);
    if (kFloating) column_index_.nan_counts.push_back(page_.nans);
    if (null_page) {
      column_index_.min_values.emplace_back();
      column_index_.max_values.emplace_back();
    } else if (page_.has_minmax) {
      auto [min, max] = EncodeBounds(page_);
      if (kBytes && spec_.physical_type == PhysicalType::kByteArray &&
          (min.size() > kMaxIndexBound || max.size() > kMaxIndexBound)) {
        bool utf8 = spec_.kind == TypeKind::kString || spec_.kind == TypeKind::kLargeString;
        min = TruncateLowerBound(min, kMaxIndexBound, utf8);
        auto upper = TruncateUpperBound(max, kMaxIndexBound, utf8);
        if (!upper) column_index_valid_ = false;
        max = upper.value_or(max);
      }
      column_index_.min_values.push_back(std::move(min));
      column_index_.max_values.push_back(std::move(max));
    }
    Stats bounds;
    bounds.has_minmax = page_.has_minmax;
    bounds.min = page_.min;
    bounds.max = page_.max;
    page_bounds_.push_back(std::move(bounds));
  }

  static constexpr int32_t kMaxIndexBound = 64;

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
    if (!defs_lazy_) defs_.reserve(capacity(1));
    if (!reps_.empty()) reps_.reserve(capacity(1));
    if (!indices_.empty()) indices_.reserve(capacity(1));
    if constexpr (kBytes) {
      if (!lengths_.empty()) {
        const int64_t average = static_cast<int64_t>(page_data_.size() / lengths_.size()) + 1;
        const size_t values = capacity(4 + average);
        lengths_.reserve(values);
        page_data_.reserve(values * static_cast<size_t>(average));
      }
    } else if constexpr (!std::is_same_v<P, bool>) {
      if (!plain_.empty()) plain_.reserve(capacity(sizeof(P)));
    }
  }

  struct Stats {
    bool has_minmax = false;
    Stored min{}, max{};
    int64_t nulls = 0, nans = 0, values = 0;

    void Merge(const Stats& other, const TypedColumnWriter& w) {
      nulls += other.nulls;
      nans += other.nans;
      values += other.values;
      if (!other.has_minmax) return;
      if (!has_minmax || w.Less(other.min, min)) min = other.min;
      if (!has_minmax || w.Less(max, other.max)) max = other.max;
      has_minmax = true;
    }
  };

  template <typename A, typename B>
  bool Less(const A& a, const B& b) const {
    if constexpr (kBytes) {
      if (spec_.decimal_bytes) return DecimalBytesLess(a, b);
      if (spec_.float16) {
        uint16_t ha, hb;
        std::memcpy(&ha, a.data(), 2);
        std::memcpy(&hb, b.data(), 2);
        return HalfToFloat(ha) < HalfToFloat(hb);
      }
      return std::string_view(a) < std::string_view(b);
    } else if constexpr (std::is_integral_v<P> && !std::is_same_v<P, bool>) {
      if (spec_.unsigned_order) {
        return static_cast<std::make_unsigned_t<P>>(a) < static_cast<std::make_unsigned_t<P>>(b);
      }
      return a < b;
    } else {
      return a < b;
    }
  }

  std::string EncodeStat(const Stored& v) const {
    if constexpr (kBytes) {
      return v;
    } else {
      Stored value = v;
      std::string out(sizeof(Stored), '\0');
      std::memcpy(out.data(), &value, sizeof(Stored));
      return out;
    }
  }

  std::pair<std::string, std::string> EncodeBounds(const Stats& stats) const {
    Stored min = stats.min, max = stats.max;
    if constexpr (kFloating) {
      // Zero bounds are written as -0 (min) and +0 (max) so that either zero is inside.
      if (min == 0) min = -P{0};
      if (max == 0) max = P{0};
    }
    return {EncodeStat(min), EncodeStat(max)};
  }

  Statistics ChunkStatistics() const {
    Statistics stats;
    stats.null_count = chunk_.nulls;
    if (kFloating) stats.nan_count = chunk_.nans;
    if (chunk_.has_minmax) {
      auto [min, max] = EncodeBounds(chunk_);
      stats.min_value = std::move(min);
      stats.max_value = std::move(max);
      stats.is_min_value_exact = true;
      stats.is_max_value_exact = true;
    }
    return stats;
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
        MaterializeDefs();
        for (int64_t k = i; k < i + run; ++k) {
          const int64_t idx = Row(rows, k);
          if (leaf.IsNull(idx)) {
            defs_.push_back(0);
            ++page_.nulls;
            continue;
          }
          defs_.push_back(1);
          AddValue(leaf, idx);
        }
      } else {
        if (nullable && !defs_lazy_) defs_.insert(defs_.end(), static_cast<size_t>(run), 1);
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
    UpdateBounds(value);
    StoreValue(value);
  }

  // A byte array's dictionary index; a value already seen in this page cannot move its bounds, so
  // the comparisons run once per distinct value and page, not per value.
  void AddToDictionary(ByteArray value) requires kBytes {
    uint32_t index = StoreIndex(value);
    if (index >= page_seen_.size()) page_seen_.resize(index + 1024, 0);
    if (page_seen_[index] == page_epoch_) return;
    page_seen_[index] = page_epoch_;
    UpdateBounds(value);
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
        if (Less(values[k], min)) min = values[k];
        if (Less(max, values[k])) max = values[k];
      }
      UpdateBounds(min);
      UpdateBounds(max);
      page_.values += count;
      page_values_ += count;
      if (dict_active_) {
        for (int64_t k = 0; k < count; ++k) StoreIndex(values[k]);
        return;
      }
      plain_.insert(plain_.end(), values, values + count);
      if (bloom_) {
        for (int64_t k = 0; k < count; ++k) bloom_->Insert(BloomHash(values[k]));
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
      UpdateBounds(v);
      lengths_.push_back(static_cast<int32_t>(v.size()));
      if (bloom_) bloom_->Insert(BloomHash(v));
      if (rows != nullptr) page_data_.append(v);
    }
    // Consecutive rows' bytes are consecutive in the array too: one append.
    if (rows == nullptr) {
      page_data_.append(data + offsets[begin],
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

  void UpdateBounds(P value) {
    if (!page_.has_minmax) {
      page_.min = Stored(value);
      page_.max = Stored(value);
      page_.has_minmax = true;
    } else if constexpr (kBytes) {
      if (Less(value, page_.min)) page_.min.assign(value);
      if (Less(page_.max, value)) page_.max.assign(value);
    } else {
      if (Less(value, page_.min)) page_.min = value;
      if (Less(page_.max, value)) page_.max = value;
    }
  }

  void StoreValue(P value) {
    ++page_values_;
    if constexpr (!std::is_same_v<P, bool>) {
      if (dict_active_) StoreIndex(value);
      if (dict_active_) return;
      if (bloom_) bloom_->Insert(BloomHash(value));
    }
    if constexpr (kBytes) {
      if (spec_.physical_type == PhysicalType::kByteArray) {
        lengths_.push_back(static_cast<int32_t>(value.size()));
      }
      page_data_.append(value);
    } else if constexpr (std::is_same_v<P, bool>) {
      bools_.push_back(value ? 1 : 0);
    } else {
      plain_.push_back(value);
    }
  }

  uint32_t StoreIndex(P value) {
    bool inserted;
    uint32_t index;
    if constexpr (kBytes) {
      index = bytes_dict_.Insert(value, inserted);
      if (inserted) dict_bytes_ += PlainSize(value);
    } else {
      index = dict_.Insert(std::bit_cast<Bits>(value), inserted);
      if (inserted) {
        dict_values_.push_back(value);
        dict_bytes_ += sizeof(P);
      }
    }
    if (inserted && bloom_) bloom_->Insert(BloomHash(value));
    indices_.push_back(index);
    // Past its budget the dictionary closes with the current row; PLAIN follows.
    if (dict_bytes_ > options_.dict_size_bytes) dict_full_ = true;
    return index;
  }

  int64_t PlainSize(ByteArray v) const {
    return spec_.physical_type == PhysicalType::kByteArray ? 4 + static_cast<int64_t>(v.size())
                                                           : static_cast<int64_t>(v.size());
  }

  int64_t PageBytes() const {
    int64_t defs =
        defs_lazy_ && spec_.max_def > 0 ? page_entries_ : static_cast<int64_t>(defs_.size());
    int64_t levels = (defs + static_cast<int64_t>(reps_.size())) / 4;
    int64_t values;
    if (!indices_.empty()) {
      values = static_cast<int64_t>(indices_.size() *
                                    std::max<size_t>(1, std::bit_width(DictSize())) / 8);
    } else if constexpr (kBytes) {
      values = static_cast<int64_t>(page_data_.size() + 4 * lengths_.size());
    } else if constexpr (std::is_same_v<P, bool>) {
      values = static_cast<int64_t>(bools_.size()) / 8;
    } else {
      values = static_cast<int64_t>(plain_.size() * sizeof(P));
    }
    return levels + values;
  }

  size_t DictSize() const {
    if constexpr (kBytes) {
      return bytes_dict_.size();
    } else {
      return dict_values_.size();
    }
  }

  void EncodeDictionary(std::vector<std::byte>& out) const {
    if constexpr (kBytes) {
      std::vector<ByteArray> views;
      views.reserve(bytes_dict_.size());
      for (size_t i = 0; i < bytes_dict_.size(); ++i) views.push_back(bytes_dict_.value(i));
      if (spec_.physical_type == PhysicalType::kByteArray) {
        EncodePlainByteArray(views, out);
      } else {
        EncodePlainFixedLenByteArray(views, out);
      }
    } else if constexpr (!std::is_same_v<P, bool>) {
      EncodePlain<P>(dict_values_, out);
    }
  }

  // Appends the RLE/bit-packed levels (v1: behind their 4-byte length); returns the bytes added.
  size_t AppendLevels(const std::vector<int16_t>& levels, int16_t max_level, bool length_prefix,
                      std::vector<std::byte>& out) const {
    const size_t start = out.size();
    if (length_prefix) out.resize(start + 4);
    EncodeRleBitPacked<int16_t>(levels, LevelBitWidth(max_level), out);
    if (length_prefix) {
      auto size = static_cast<uint32_t>(out.size() - start - 4);
      std::memcpy(out.data() + start, &size, 4);
    }
    return out.size() - start;
  }

  // Every entry of the page so far is at the maximum definition level until a null or a nested
  // entry comes: until then defs_ stays empty and the levels are written as one run.
  void MaterializeDefs() {
    if (!defs_lazy_) return;
    defs_.assign(static_cast<size_t>(page_entries_), spec_.max_def);
    defs_lazy_ = false;
  }

  size_t AppendDefinitionLevels(bool length_prefix, std::vector<std::byte>& out) const {
    if (!defs_lazy_) return AppendLevels(defs_, spec_.max_def, length_prefix, out);
    const size_t start = out.size();
    if (length_prefix) out.resize(start + 4);
    if (page_entries_ > 0) {
      EncodeRleRun(static_cast<uint32_t>(spec_.max_def), static_cast<size_t>(page_entries_),
                   LevelBitWidth(spec_.max_def), out);
    }
    if (length_prefix) {
      auto size = static_cast<uint32_t>(out.size() - start - 4);
      std::memcpy(out.data() + start, &size, 4);
    }
    return out.size() - start;
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
          for (size_t i = 0; i < indices_.size(); ++i) page[i] = dict_values_[indices_[i]];
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
          std::string_view value = bytes_dict_.value(index);
          if (spec_.physical_type == PhysicalType::kByteArray) {
            lengths_.push_back(static_cast<int32_t>(value.size()));
          }
          page_data_.append(value);
        } else {
          plain_.push_back(dict_values_[index]);
        }
      }
      indices_.clear();
      dict_active_ = false;
      dict_full_ = false;
      dict_.Clear();
      dict_values_.clear();
      bytes_dict_.Clear();
      dict_bytes_ = 0;
    }
  }

  static constexpr size_t kDictionaryProbeValues = 1024;

  // A page of byte arrays that are not dictionary-encoded. BYTE_ARRAY pages may go as PLAIN, as
  // DELTA_LENGTH_BYTE_ARRAY (the lengths delta-packed in front, then the bytes back to back) or as
  // DELTA_BYTE_ARRAY (each value's prefix shared with the previous one left out). Which is smallest
  // depends on the data: the separate lengths win for strings without structure (hex digests: 8%
  // smaller and three times faster to compress at zstd level 1) and lose for text (TPC-H comments:
  // 5% larger, the interleaved lengths help the codec find word boundaries); shared prefixes (keys
  // with a common stem, sorted values) give the codec less to do (a constant 8-byte stem on hex
  // digests: 3% smaller than PLAIN and compressed in a third of the time).
  //
  // The chunk's first such page decides. PLAIN against the separate lengths is decided on a sample
  // of about kEncodingProbeBytes, compressed both ways. Left-out prefixes can only pay when values
  // share a good part of their bytes with the previous one (at least kSharedPrefixShare of the
  // sample's bytes); then the sample's winner and DELTA_BYTE_ARRAY are compressed over the whole
  // page, because a stem only wins on whole pages (on 64 KiB samples of stemmed digests the codec
  // alone does as well), or over the sample in a chunk of one page, where the whole page would
  // cost more than writing it. So a many-table stream's small files and pages of values without
  // shared prefixes pay two compressions of a sample, not three of a page.
  static constexpr size_t kEncodingProbeBytes = 16 << 10;
  static constexpr size_t kSharedPrefixShare = 8;  // one byte in eight

  void EncodeBytesPage(bool chunk_end, std::vector<std::byte>& values, Encoding& encoding) {
    auto bytes = std::as_bytes(std::span(page_data_));
    if (spec_.physical_type != PhysicalType::kByteArray) {
      values.insert(values.end(), bytes.begin(), bytes.end());
      return;
    }
    if (options_.delta_encoding && !bytes_encoding_) {
      size_t sample = 0, sample_bytes = 0;
      while (sample < lengths_.size() && sample_bytes < kEncodingProbeBytes) {
        sample_bytes += static_cast<size_t>(lengths_[sample++]);
      }
      std::vector<std::byte> candidate, scratch;
      auto compressed_size = [&](Encoding e, size_t count) {
        candidate.clear();
        EncodeBytes(e, count, candidate);
        return CompressedSize(candidate, scratch);
      };
      bytes_encoding_ = compressed_size(Encoding::kDeltaLengthByteArray, sample) <
                                compressed_size(Encoding::kPlain, sample)
                            ? Encoding::kDeltaLengthByteArray
                            : Encoding::kPlain;
      if (SharedPrefixBytes(sample) * kSharedPrefixShare >= sample_bytes) {
        const size_t count = chunk_end ? sample : lengths_.size();
        if (compressed_size(Encoding::kDeltaByteArray, count) <
            compressed_size(*bytes_encoding_, count)) {
          bytes_encoding_ = Encoding::kDeltaByteArray;
        }
      }
    }
    encoding = bytes_encoding_.value_or(Encoding::kPlain);
    EncodeBytes(encoding, lengths_.size(), values);
  }

  // The bytes each of the page's first `count` byte arrays shares with the one before it.
  size_t SharedPrefixBytes(size_t count) const {
    size_t shared = 0, at = 0;
    std::string_view previous;
    for (int32_t length : std::span(lengths_).first(count)) {
      std::string_view value(page_data_.data() + at, static_cast<size_t>(length));
      const size_t limit = std::min(previous.size(), value.size());
      size_t k = 0;
      while (k < limit && previous[k] == value[k]) ++k;
      shared += k;
      previous = value;
      at += static_cast<size_t>(length);
    }
    return shared;
  }

  // The page's first `count` byte arrays in `encoding`.
  void EncodeBytes(Encoding encoding, size_t count, std::vector<std::byte>& out) const {
    if (encoding == Encoding::kDeltaLengthByteArray) {
      EncodeDeltaLengthBytes(out, count);
    } else if (encoding == Encoding::kDeltaByteArray) {
      EncodeDeltaBytes(out, count);
    } else {
      EncodePlainBytes(out, count);
    }
  }

  // The bytes of the page's first `count` byte arrays.
  size_t PrefixBytes(size_t count) const {
    if (count == lengths_.size()) return page_data_.size();
    size_t bytes = 0;
    for (size_t i = 0; i < count; ++i) bytes += static_cast<size_t>(lengths_[i]);
    return bytes;
  }

  void EncodeDeltaLengthBytes(std::vector<std::byte>& out, size_t count) const {
    auto bytes = std::as_bytes(std::span(page_data_)).first(PrefixBytes(count));
    EncodeDeltaBinaryPacked<int32_t>(std::span(lengths_).first(count), out);
    out.insert(out.end(), bytes.begin(), bytes.end());
  }

  void EncodeDeltaBytes(std::vector<std::byte>& out, size_t count) const {
    std::vector<ByteArray> views;
    views.reserve(count);
    size_t at = 0;
    for (int32_t length : std::span(lengths_).first(count)) {
      views.push_back(std::string_view(page_data_).substr(at, static_cast<size_t>(length)));
      at += static_cast<size_t>(length);
    }
    EncodeDeltaByteArray(views, out);
  }

  void EncodePlainBytes(std::vector<std::byte>& out, size_t count) const {
    const size_t start = out.size();
    out.resize(start + PrefixBytes(count) + 4 * count);
    std::byte* to = out.data() + start;
    const char* from = page_data_.data();
    for (int32_t length : std::span(lengths_).first(count)) {
      auto n = static_cast<uint32_t>(length);
      std::memcpy(to, &n, 4);
      std::memcpy(to + 4, from, n);
      to += 4 + n;
      from += n;
    }
  }

  size_t CompressedSize(std::span<const std::byte> body, std::vector<std::byte>& scratch) {
    if (options_.codec == Codec::kUncompressed) return body.size();
    scratch.clear();
    Status s = compression::Compress(ToCompressionCodec(options_.codec), body, scratch,
                                     CompressionLevel(options_));
    if (!s && status_) status_ = s;
    return scratch.size();
  }

  // The page's levels and values are encoded into the file's page buffers (v1: levels then values
  // in body_, v2: levels in levels_ and values in body_), so a page costs no allocation but its
  // own compressed bytes.
  void FlushPage(bool chunk_end = false) {
    MaybeDropDictionary();
    bool v2 = options_.data_page_v2;
    body_.clear();
    levels_.clear();
    std::vector<std::byte>& levels = v2 ? levels_ : body_;
    size_t rep_size = 0, def_size = 0;
    if (spec_.max_rep > 0) rep_size = AppendLevels(reps_, spec_.max_rep, !v2, levels);
    if (spec_.max_def > 0) def_size = AppendDefinitionLevels(!v2, levels);
    std::vector<std::byte>& values = body_;
    const size_t values_start = values.size();
    Encoding encoding = Encoding::kPlain;
    if (dict_active_) {
      encoding = Encoding::kRleDictionary;
      int bit_width = std::max(1, static_cast<int>(std::bit_width(DictSize() - (DictSize() > 0))));
      values.push_back(static_cast<std::byte>(bit_width));
      EncodeRleBitPacked<uint32_t>(indices_, bit_width, values);
      dict_used_ = true;
    } else if constexpr (kBytes) {
      EncodeBytesPage(chunk_end, values, encoding);
    } else if constexpr (std::is_same_v<P, bool>) {
      auto flags = std::make_unique<bool[]>(bools_.size());
      for (size_t i = 0; i < bools_.size(); ++i) flags[i] = bools_[i] != 0;
      EncodePlainBoolean(std::span<const bool>(flags.get(), bools_.size()), values);
    } else {
      if constexpr (std::is_same_v<P, int32_t> || std::is_same_v<P, int64_t>) {
        // Sorted or slowly changing integers (ids, timestamps) shrink to a few bits per value,
        // which also spares the codec most of its work.
        if (options_.delta_encoding && plain_.size() >= 128) {
          EncodeDeltaBinaryPacked<P>(plain_, values);
          if (2 * (values.size() - values_start) <= plain_.size() * sizeof(P)) {
            encoding = Encoding::kDeltaBinaryPacked;
          } else {
            values.resize(values_start);
          }
        }
      }
      if (encoding == Encoding::kPlain) EncodePlain<P>(plain_, values);
    }
    encodings_.insert(encoding);
    encodings_.insert(Encoding::kRle);

    PageHeader header;
    ColumnMetaData sizes;  // only its total_uncompressed_size is used
    AddPageToColumnIndex();
    PageLocation location;
    location.offset = pages_bytes_;  // made absolute by FinishChunk
    std::vector<std::byte>& page = pages_.emplace_back();
    location.first_row_index = chunk_rows_;
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
      WritePage(header, body_, levels_, page, sizes);
    } else {
      header.type = PageType::kDataPage;
      DataPageHeader h;
      h.num_values = static_cast<int32_t>(page_entries_);
      h.encoding = encoding;
      header.data_page_header = h;
      WritePage(header, body_, {}, page, sizes);
    }
    pages_uncompressed_ += sizes.total_uncompressed_size;
    location.compressed_page_size = static_cast<int32_t>(page.size());
    pages_bytes_ += static_cast<int64_t>(page.size());
    offset_index_.page_locations.push_back(location);
    chunk_rows_ += page_rows_;
    chunk_.Merge(page_, *this);
    page_ = Stats{};
    ++page_epoch_;
    defs_.clear();
    defs_lazy_ = true;
    reps_.clear();
    indices_.clear();
    plain_.clear();
    bools_.clear();
    page_data_.clear();
    lengths_.clear();
    page_rows_ = 0;
    page_entries_ = 0;
    page_values_ = 0;
    page_reserved_ = false;
  }

  // Compresses body (levels stay uncompressed in front for v2) and appends header and page to
  // out; adds the page's uncompressed size (header included) to meta.total_uncompressed_size.
  void WritePage(PageHeader& header, std::span<const std::byte> body,
                 std::span<const std::byte> levels, std::vector<std::byte>& out,
                 ColumnMetaData& meta) {
    std::span<const std::byte> stored = body;
    if (options_.codec != Codec::kUncompressed) {
      compressed_.clear();
      Status s = compression::Compress(ToCompressionCodec(options_.codec), body, compressed_,
                                       CompressionLevel(options_));
      if (!s && status_) status_ = s;
      stored = compressed_;
    }
    header.uncompressed_page_size = static_cast<int32_t>(levels.size() + body.size());
    header.compressed_page_size = static_cast<int32_t>(levels.size() + stored.size());
    std::vector<std::byte> encoded = EncodePageHeader(header);
    out.reserve(out.size() + encoded.size() + levels.size() + stored.size());
    out.insert(out.end(), encoded.begin(), encoded.end());
    out.insert(out.end(), levels.begin(), levels.end());
    out.insert(out.end(), stored.begin(), stored.end());
    meta.total_uncompressed_size +=
        static_cast<int64_t>(encoded.size()) + header.uncompressed_page_size;
  }

  void ResetChunk() {
    pages_.clear();
    pages_.shrink_to_fit();
    pages_bytes_ = 0;
    pages_uncompressed_ = 0;
    encodings_.clear();
    chunk_ = Stats{};
    num_values_ = 0;
    chunk_rows_ = 0;
    column_index_ = ColumnIndex{};
    column_index_valid_ = true;
    offset_index_ = OffsetIndex{};
    page_bounds_.clear();
    dict_.Clear();
    dict_values_.clear();
    bytes_dict_.Clear();
    dict_bytes_ = 0;
    dict_used_ = false;
    dict_full_ = false;
    bytes_encoding_.reset();
    dict_probed_ = false;
    dict_active_ = options_.dictionary_enabled && !std::is_same_v<P, bool>;
  }

  const WriterOptions& options_;
  Status status_;
  // The open page.
  std::vector<int16_t> defs_, reps_;
  bool defs_lazy_ = true;  // defs_ not kept: every entry so far is at max_def (MaterializeDefs)
  std::vector<uint32_t> indices_;
  std::vector<P> plain_;
  std::vector<uint8_t> bools_;
  std::string page_data_;         // byte arrays: the values' bytes back to back
  std::vector<int32_t> lengths_;  // BYTE_ARRAY: each value's length
  // Per dictionary index, the last page (epoch) whose bounds include the value.
  std::vector<uint32_t> page_seen_;
  uint32_t page_epoch_ = 1;
  // The page being written (PageBuffers).
  std::vector<std::byte>& body_;
  std::vector<std::byte>& levels_;
  std::vector<std::byte>& compressed_;
  std::optional<Encoding> bytes_encoding_;  // the chunk's choice for BYTE_ARRAY pages
  int64_t page_rows_ = 0, page_entries_ = 0, page_values_ = 0;
  bool page_reserved_ = false;  // ReservePage ran for the open page
  // The chunk.
  std::vector<std::vector<std::byte>> pages_;  // each page's header and body
  int64_t pages_bytes_ = 0;
  int64_t pages_uncompressed_ = 0;
  std::set<Encoding> encodings_;
  Stats page_, chunk_, file_;
  int64_t chunk_rows_ = 0;
  ColumnIndex column_index_;
  bool column_index_valid_ = true;
  OffsetIndex offset_index_;
  std::vector<Stats> page_bounds_;
  std::optional<BloomCollector> bloom_;
  int64_t num_values_ = 0;  // entries (nulls included), as ColumnMetaData counts them
  int64_t column_size_ = 0;
  bool dict_active_ = false, dict_used_ = false, dict_full_ = false, dict_probed_ = false;
  int64_t dict_bytes_ = 0;
  FixedDictionaryTable<Bits> dict_;
  std::vector<P> dict_values_;
  BytesDictionaryTable bytes_dict_;
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
