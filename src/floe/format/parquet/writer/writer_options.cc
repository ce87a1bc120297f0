#include "floe/format/parquet/writer/writer_options.h"

#include <cctype>
#include <charconv>

#include "floe/format/compression/codec.h"

namespace floe::parquet {
namespace {

Result<int64_t> ParsePositive(std::string_view name, std::string_view text, int64_t min_value) {
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || value < min_value) {
    return InvalidArgument("property {}: '{}' is not an integer >= {}", name, text, min_value);
  }
  return value;
}

}  // namespace

Result<MetricsMode> ParseMetricsMode(std::string_view text) {
  if (text == "none") return MetricsMode{MetricsMode::Kind::kNone, 0};
  if (text == "counts") return MetricsMode{MetricsMode::Kind::kCounts, 0};
  if (text == "full") return MetricsMode{MetricsMode::Kind::kFull, 0};
  if (text.starts_with("truncate(") && text.ends_with(")")) {
    std::string_view digits = text.substr(9, text.size() - 10);
    int32_t length = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), length);
    if (ec == std::errc() && ptr == digits.data() + digits.size() && length >= 1 &&
        !digits.empty()) {
      return MetricsMode{MetricsMode::Kind::kTruncate, length};
    }
  }
  return InvalidArgument("metrics mode '{}' is not none, counts, truncate(N >= 1) or full", text);
}

int32_t CompressionLevel(const WriterOptions& options) {
  if (options.compression_level) return *options.compression_level;
  return options.codec == Codec::kZstd ? kDefaultZstdLevel : compression::kDefaultLevel;
}

Result<WriterOptions> ParseWriterOptions(const std::map<std::string, std::string>& properties) {
  WriterOptions options;
  constexpr std::string_view kBloomEnabled = "write.parquet.bloom-filter-enabled.column.";
  constexpr std::string_view kBloomFpp = "write.parquet.bloom-filter-fpp.column.";
  std::map<std::string, double> bloom_fpp;
  for (const auto& [key, value] : properties) {
    if (key.starts_with(kBloomEnabled)) {
      if (value != "true" && value != "false") {
        return InvalidArgument("property {}: '{}' is not true or false", key, value);
      }
      if (value == "true") options.bloom_filter_columns[key.substr(kBloomEnabled.size())] = 0.01;
      continue;
    }
    if (key.starts_with(kBloomFpp)) {
      double fpp = 0;
      auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), fpp);
      if (ec != std::errc() || ptr != value.data() + value.size() || !(fpp > 0 && fpp < 1)) {
        return InvalidArgument("property {}: '{}' is not a probability between 0 and 1", key,
                               value);
      }
      bloom_fpp[key.substr(kBloomFpp.size())] = fpp;
      continue;
    }
    if (key == "write.parquet.row-group-size-bytes") {
      FLOE_ASSIGN_OR_RETURN(options.row_group_size_bytes, ParsePositive(key, value, 1));
    } else if (key == "write.parquet.page-size-bytes") {
      FLOE_ASSIGN_OR_RETURN(options.page_size_bytes, ParsePositive(key, value, 1));
    } else if (key == "write.parquet.page-row-limit") {
      FLOE_ASSIGN_OR_RETURN(options.page_row_limit, ParsePositive(key, value, 1));
    } else if (key == "write.parquet.bloom-filter-max-bytes") {
      FLOE_ASSIGN_OR_RETURN(options.bloom_filter_max_bytes, ParsePositive(key, value, 32));
    } else if (key == "write.parquet.dict-size-bytes") {
      FLOE_ASSIGN_OR_RETURN(options.dict_size_bytes, ParsePositive(key, value, 0));
    } else if (key == "write.parquet.compression-codec") {
      std::string lower;
      for (char c : value) lower.push_back(static_cast<char>(std::tolower(c)));
      if (lower == "zstd") {
        options.codec = Codec::kZstd;
      } else if (lower == "snappy") {
        options.codec = Codec::kSnappy;
      } else if (lower == "gzip") {
        options.codec = Codec::kGzip;
      } else if (lower == "lz4_raw" || lower == "lz4") {
        options.codec = Codec::kLz4Raw;
      } else if (lower == "uncompressed" || lower == "none") {
        options.codec = Codec::kUncompressed;
      } else {
        return InvalidArgument(
            "property {}: '{}' is not zstd, snappy, gzip, lz4_raw or uncompressed", key, value);
      }
    } else if (key == "write.parquet.compression-level") {
      int32_t level = 0;
      auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), level);
      if (ec != std::errc() || ptr != value.data() + value.size() || value.empty()) {
        return InvalidArgument("property {}: '{}' is not an integer", key, value);
      }
      options.compression_level = level;
    } else if (key == "write.metadata.metrics.default") {
      auto mode = ParseMetricsMode(value);
      if (!mode) return InvalidArgument("property {}: {}", key, mode.error().message());
      options.default_metrics = *mode;
    }
  }
  for (auto& [column, fpp] : options.bloom_filter_columns) {
    auto it = bloom_fpp.find(column);
    if (it != bloom_fpp.end()) fpp = it->second;
  }
  if (options.codec == Codec::kGzip && options.compression_level &&
      (*options.compression_level < 0 || *options.compression_level > 9)) {
    return InvalidArgument("property write.parquet.compression-level: {} is outside 0..9 for gzip",
                           *options.compression_level);
  }
  return options;
}

}  // namespace floe::parquet
