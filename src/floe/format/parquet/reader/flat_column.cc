#include <algorithm>
#include <bit>
#include <type_traits>
#include <vector>

#include "floe/format/parquet/file_reader.h"
#include "floe/format/parquet/reader/flat_column_internal.h"
#include "floe/format/parquet/reader/leaf_conversion_internal.h"

namespace floe::parquet {
namespace {

// Rows decoded per ReadBatch call when values go through a scratch buffer: small enough for the
// scratch to stay in cache between the decode and the copy into the builder.
constexpr size_t kPiece = 4096;

// Validity bits for n definition levels; returns how many are set.
size_t LevelsToBits(const int16_t* def, size_t n, int16_t max_def, uint8_t* bits) {
  size_t present = 0;
  size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    uint8_t byte = 0;
    for (size_t j = 0; j < 8; ++j) byte |= static_cast<uint8_t>(def[k + j] == max_def) << j;
    bits[k >> 3] = byte;
    present += static_cast<size_t>(std::popcount(byte));
  }
  if (k < n) {
    uint8_t byte = 0;
    for (size_t j = 0; k + j < n; ++j) byte |= static_cast<uint8_t>(def[k + j] == max_def) << j;
    bits[k >> 3] = byte;
    present += static_cast<size_t>(std::popcount(byte));
  }
  return present;
}

// What every column type shares: the chunk reader and the level and value scratch.
template <typename P>
class ChunkPieces : public FlatColumnReader {
 public:
  ChunkPieces(std::unique_ptr<ColumnChunkReader<P>> reader, int16_t max_def, std::string where,
              std::string name)
      : reader_(std::move(reader)),
        max_def_(max_def),
        where_(std::move(where)),
        name_(std::move(name)),
        values_(std::make_unique<P[]>(kPiece)) {
    if (max_def_ > 0) {
      def_.resize(kPiece);
      bits_.resize(kPiece / 8);
    }
  }

  Status CheckExhausted() override {
    FLOE_ASSIGN_OR_RETURN(BatchCounts counts, NextPiece(1));
    if (counts.levels > 0) {
      return CorruptData("{}: column {} has more values than the row group's rows", where_, name_);
    }
    return Ok();
  }

 protected:
  // Up to `want` (at most kPiece) rows into def_ and values_; fails at the end of the chunk.
  Result<BatchCounts> NextPiece(size_t want) {
    return reader_->ReadBatch(want, max_def_ > 0 ? def_.data() : nullptr, nullptr, values_.get());
  }
  Status TooFew() const {
    return CorruptData("{}: column {} has fewer values than the row group's rows", where_, name_);
  }
  // The validity of the piece just read (max_def_ > 0), and its present count.
  size_t PieceBits(size_t levels) {
    return LevelsToBits(def_.data(), levels, max_def_, bits_.data());
  }

  std::unique_ptr<ColumnChunkReader<P>> reader_;
  int16_t max_def_;
  std::string where_;
  std::string name_;
  std::unique_ptr<P[]> values_;  // not a vector: vector<bool> has no data()
  std::vector<int16_t> def_;
  std::vector<uint8_t> bits_;
};

template <typename P, typename T, typename B, typename Convert>
class FixedColumn final : public ChunkPieces<P> {
 public:
  FixedColumn(std::unique_ptr<ColumnChunkReader<P>> reader, int16_t max_def, std::string where,
              std::string name, Convert convert)
      : ChunkPieces<P>(std::move(reader), max_def, std::move(where), std::move(name)),
        convert_(convert) {}

  Status Read(ArrayBuilder& builder, int64_t rows) override {
    auto& out = static_cast<B&>(builder);
    const auto n = static_cast<size_t>(rows);
    if constexpr (kDirect) {
      if (this->max_def_ == 0) {
        // Decoded in place: PLAIN pages are one copy from the page into the column.
        std::span<T> dst = out.AppendUninitialized(rows);
        for (size_t done = 0; done < n;) {
          FLOE_ASSIGN_OR_RETURN(BatchCounts counts,
                                this->reader_->ReadBatch(n - done, nullptr, nullptr, &dst[done]));
          if (counts.levels == 0) return this->TooFew();
          done += counts.levels;
        }
        return Ok();
      }
    } else {
      if (converted_.empty()) converted_.resize(kPiece);
    }
    out.Reserve(rows);
    for (size_t done = 0; done < n;) {
      FLOE_ASSIGN_OR_RETURN(BatchCounts counts, this->NextPiece(std::min(n - done, kPiece)));
      if (counts.levels == 0) return this->TooFew();
      const T* values;
      if constexpr (kDirect) {
        values = this->values_.get();
      } else {
        std::transform(this->values_.get(), this->values_.get() + counts.values, converted_.data(),
                       convert_);
        values = converted_.data();
      }
      if (this->max_def_ == 0 || counts.values == counts.levels) {
        out.AppendValues(std::span<const T>(values, counts.values));
      } else {
        this->PieceBits(counts.levels);
        out.AppendValuesSpaced(std::span<const T>(values, counts.values), this->bits_.data(), 0,
                               static_cast<int64_t>(counts.levels));
      }
      done += counts.levels;
    }
    return Ok();
  }

 private:
  static constexpr bool kDirect = std::is_same_v<P, T> && std::is_same_v<Convert, Identity>;
  Convert convert_;
  std::vector<T> converted_;
};

class BoolColumn final : public ChunkPieces<bool> {
 public:
  using ChunkPieces<bool>::ChunkPieces;

  Status Read(ArrayBuilder& builder, int64_t rows) override {
    auto& out = static_cast<BooleanBuilder&>(builder);
    const auto n = static_cast<size_t>(rows);
    out.Reserve(rows);
    for (size_t done = 0; done < n;) {
      FLOE_ASSIGN_OR_RETURN(BatchCounts counts, NextPiece(std::min(n - done, kPiece)));
      if (counts.levels == 0) return TooFew();
      if (max_def_ == 0 || counts.values == counts.levels) {
        out.AppendValues(std::span<const bool>(values_.get(), counts.values));
      } else {
        size_t next = 0;
        for (size_t k = 0; k < counts.levels; ++k) {
          if (def_[k] == max_def_) {
            out.Append(values_[next++]);
          } else {
            out.AppendNull();
          }
        }
      }
      done += counts.levels;
    }
    return Ok();
  }
};

template <typename B>
class BytesColumn final : public ChunkPieces<ByteArray> {
 public:
  using ChunkPieces<ByteArray>::ChunkPieces;

  Status Read(ArrayBuilder& builder, int64_t rows) override {
    auto& out = static_cast<B&>(builder);
    const auto n = static_cast<size_t>(rows);
    out.Reserve(rows);
    for (size_t done = 0; done < n;) {
      FLOE_ASSIGN_OR_RETURN(BatchCounts counts, NextPiece(std::min(n - done, kPiece)));
      if (counts.levels == 0) return TooFew();
      // The views point into the page or dictionary: copy them before the next piece.
      const ByteArray* values = values_.get();
      if constexpr (std::is_same_v<B, StringBuilder>) {
        size_t bytes = 0;
        for (size_t i = 0; i < counts.values; ++i) bytes += values[i].size();
        out.ReserveData(static_cast<int64_t>(bytes));
        if (max_def_ == 0 || counts.values == counts.levels) {
          for (size_t i = 0; i < counts.values; ++i) out.UnsafeAppend(values[i]);
          done += counts.levels;
          continue;
        }
      }
      size_t next = 0;
      for (size_t k = 0; k < counts.levels; ++k) {
        if (max_def_ == 0 || def_[k] == max_def_) {
          out.Append(values[next++]);
        } else {
          out.AppendNull();
        }
      }
      done += counts.levels;
    }
    return Ok();
  }
};

template <typename P>
class NullColumn final : public ChunkPieces<P> {
 public:
  using ChunkPieces<P>::ChunkPieces;

  Status Read(ArrayBuilder& builder, int64_t rows) override {
    const auto n = static_cast<size_t>(rows);
    for (size_t done = 0; done < n;) {
      FLOE_ASSIGN_OR_RETURN(BatchCounts counts, this->NextPiece(std::min(n - done, kPiece)));
      if (counts.levels == 0) return this->TooFew();
      done += counts.levels;
    }
    builder.AppendNulls(rows);
    return Ok();
  }
};

// Makes the reader for the chunk's conversion.
struct Factory {
  const FileReader& file;
  size_t row_group;
  int column;
  const ChunkRowSelection* selection;
  int16_t max_def;
  std::string where;
  std::string name;
  std::unique_ptr<FlatColumnReader> made;

  template <typename P>
  Result<std::unique_ptr<ColumnChunkReader<P>>> Chunk() {
    return file.ReadColumn<P>(row_group, static_cast<size_t>(column), selection);
  }
  template <typename P, typename T, typename B, typename Convert>
  Status Fixed(Convert convert) {
    FLOE_ASSIGN_OR_RETURN(auto chunk, Chunk<P>());
    made = std::make_unique<FixedColumn<P, T, B, Convert>>(
        std::move(chunk), max_def, std::move(where), std::move(name), convert);
    return Ok();
  }
  Status Bool() {
    FLOE_ASSIGN_OR_RETURN(auto chunk, Chunk<bool>());
    made =
        std::make_unique<BoolColumn>(std::move(chunk), max_def, std::move(where), std::move(name));
    return Ok();
  }
  template <typename B>
  Status Bytes() {
    FLOE_ASSIGN_OR_RETURN(auto chunk, Chunk<ByteArray>());
    made = std::make_unique<BytesColumn<B>>(std::move(chunk), max_def, std::move(where),
                                            std::move(name));
    return Ok();
  }
  template <typename P>
  Status NullOf() {
    FLOE_ASSIGN_OR_RETURN(auto chunk, Chunk<P>());
    made = std::make_unique<NullColumn<P>>(std::move(chunk), max_def, std::move(where),
                                           std::move(name));
    return Ok();
  }
  Status Null() {
    switch (file.schema().columns()[column].physical_type) {
      case PhysicalType::kBoolean:
        return NullOf<bool>();
      case PhysicalType::kInt32:
        return NullOf<int32_t>();
      case PhysicalType::kInt64:
        return NullOf<int64_t>();
      case PhysicalType::kInt96:
        return NullOf<Int96>();
      case PhysicalType::kFloat:
        return NullOf<float>();
      case PhysicalType::kDouble:
        return NullOf<double>();
      case PhysicalType::kByteArray:
      case PhysicalType::kFixedLenByteArray:
        return NullOf<ByteArray>();
    }
    return CorruptData("{}: column {}: unknown physical type", where, name);
  }
};

}  // namespace

Result<std::unique_ptr<FlatColumnReader>> MakeFlatColumnReader(const FileReader& file,
                                                               size_t row_group, int column,
                                                               LeafConversion conversion,
                                                               const ChunkRowSelection* selection,
                                                               std::string where) {
  const ColumnDescriptor& descriptor = file.schema().columns()[column];
  Factory factory{file,
                  row_group,
                  column,
                  selection,
                  descriptor.max_definition_level,
                  where,
                  descriptor.dotted_path()};
  FLOE_RETURN_IF_ERROR(VisitConversion(conversion, factory));
  return std::move(factory.made);
}

}  // namespace floe::parquet
