#include "floe/format/orc/metadata.h"

#include "floe/format/orc/proto_internal.h"

namespace floe::orc {

std::string_view CompressionKindName(CompressionKind kind) {
  switch (kind) {
    case CompressionKind::kNone:
      return "NONE";
    case CompressionKind::kZlib:
      return "ZLIB";
    case CompressionKind::kSnappy:
      return "SNAPPY";
    case CompressionKind::kLzo:
      return "LZO";
    case CompressionKind::kLz4:
      return "LZ4";
    case CompressionKind::kZstd:
      return "ZSTD";
  }
  return "?";
}

std::string_view TypeKindName(TypeKind kind) {
  static constexpr std::string_view kNames[] = {"boolean",
                                                "tinyint",
                                                "smallint",
                                                "int",
                                                "bigint",
                                                "float",
                                                "double",
                                                "string",
                                                "binary",
                                                "timestamp",
                                                "array",
                                                "map",
                                                "struct",
                                                "uniontype",
                                                "decimal",
                                                "date",
                                                "varchar",
                                                "char",
                                                "timestamp with local time zone"};
  const auto index = static_cast<size_t>(kind);
  return index < std::size(kNames) ? kNames[index] : "?";
}

std::optional<std::string> Type::Attribute(std::string_view key) const {
  for (const auto& [k, v] : attributes) {
    if (k == key) return v;
  }
  return std::nullopt;
}

namespace {

Result<uint32_t> Uint32(ProtoReader& in) {
  FLOE_ASSIGN_OR_RETURN(uint64_t value, in.Varint());
  if (value > UINT32_MAX) return CorruptData("protobuf uint32 field holds {}", value);
  return static_cast<uint32_t>(value);
}

// A message of key/value strings (StringPair, UserMetadataItem): fields 1 and 2.
Result<std::pair<std::string, std::string>> ParsePair(std::span<const std::byte> bytes) {
  ProtoReader in(bytes);
  std::pair<std::string, std::string> out;
  while (!in.done()) {
    FLOE_ASSIGN_OR_RETURN(auto tag, in.Next());
    if (tag.field == 1 && tag.wire_type == ProtoReader::kLength) {
      FLOE_ASSIGN_OR_RETURN(out.first, in.String());
    } else if (tag.field == 2 && tag.wire_type == ProtoReader::kLength) {
      FLOE_ASSIGN_OR_RETURN(out.second, in.String());
    } else {
      FLOE_RETURN_IF_ERROR(in.Skip(tag.wire_type));
    }
  }
  return out;
}

Result<Type> ParseType(std::span<const std::byte> bytes) {
  ProtoReader in(bytes);
  Type type;
  while (!in.done()) {
    FLOE_ASSIGN_OR_RETURN(auto tag, in.Next());
    switch (tag.field) {
      case 1: {
        FLOE_ASSIGN_OR_RETURN(uint64_t kind, in.Varint());
        if (kind > static_cast<uint64_t>(TypeKind::kTimestampInstant)) {
          return CorruptData("unknown ORC type kind {}", kind);
        }
        type.kind = static_cast<TypeKind>(kind);
        break;
      }
      case 2: {
        std::vector<uint64_t> subtypes;
        FLOE_RETURN_IF_ERROR(in.RepeatedVarint(tag.wire_type, subtypes));
        for (uint64_t s : subtypes) {
          if (s > UINT32_MAX) return CorruptData("ORC subtype id {} out of range", s);
          type.subtypes.push_back(static_cast<uint32_t>(s));
        }
        break;
      }
      case 3: {
        FLOE_ASSIGN_OR_RETURN(auto name, in.String());
        type.field_names.push_back(std::move(name));
        break;
      }
      case 4: {
        FLOE_ASSIGN_OR_RETURN(type.maximum_length, Uint32(in));
        break;
      }
      case 5: {
        FLOE_ASSIGN_OR_RETURN(type.precision, Uint32(in));
        break;
      }
      case 6: {
        FLOE_ASSIGN_OR_RETURN(type.scale, Uint32(in));
        break;
      }
      case 7: {
        FLOE_ASSIGN_OR_RETURN(auto pair_bytes, in.Bytes());
        FLOE_ASSIGN_OR_RETURN(auto pair, ParsePair(pair_bytes));
        type.attributes.push_back(std::move(pair));
        break;
      }
      default:
        FLOE_RETURN_IF_ERROR(in.Skip(tag.wire_type));
    }
  }
  return type;
}

Result<StripeInformation> ParseStripeInformation(std::span<const std::byte> bytes) {
  ProtoReader in(bytes);
  StripeInformation stripe;
  while (!in.done()) {
    FLOE_ASSIGN_OR_RETURN(auto tag, in.Next());
    uint64_t* field = nullptr;
    switch (tag.field) {
      case 1:
        field = &stripe.offset;
        break;
      case 2:
        field = &stripe.index_length;
        break;
      case 3:
        field = &stripe.data_length;
        break;
      case 4:
        field = &stripe.footer_length;
        break;
      case 5:
        field = &stripe.number_of_rows;
        break;
    }
    if (field != nullptr && tag.wire_type == ProtoReader::kVarint) {
      FLOE_ASSIGN_OR_RETURN(*field, in.Varint());
    } else {
      FLOE_RETURN_IF_ERROR(in.Skip(tag.wire_type));
    }
  }
  return stripe;
}

// Reads the min (field 1) and max (field 2) of a statistics message with a value reader per
// field; the range is set only when both are present.
template <typename T, typename ReadFn>
Result<std::optional<std::pair<T, T>>> ParseRange(std::span<const std::byte> bytes,
                                                  uint32_t min_field, uint32_t max_field,
                                                  ReadFn read) {
  ProtoReader in(bytes);
  std::optional<T> min, max;
  while (!in.done()) {
    FLOE_ASSIGN_OR_RETURN(auto tag, in.Next());
    if (tag.field == min_field || tag.field == max_field) {
      FLOE_ASSIGN_OR_RETURN(T value, read(in));
      (tag.field == min_field ? min : max) = std::move(value);
    } else {
      FLOE_RETURN_IF_ERROR(in.Skip(tag.wire_type));
    }
  }
  if (!min || !max) return std::nullopt;
  return std::pair<T, T>(std::move(*min), std::move(*max));
}

Result<ColumnStatistics> ParseColumnStatistics(std::span<const std::byte> bytes) {
  ProtoReader in(bytes);
  ColumnStatistics stats;
  auto read_signed = [](ProtoReader& r) { return r.SignedVarint(); };
  auto read_string = [](ProtoReader& r) { return r.String(); };
  while (!in.done()) {
    FLOE_ASSIGN_OR_RETURN(auto tag, in.Next());
    if (tag.field == 1 || tag.field == 10) {
      FLOE_ASSIGN_OR_RETURN(uint64_t value, in.Varint());
      if (tag.field == 1) {
        stats.number_of_values = value;
      } else {
        stats.has_null = value != 0;
      }
      continue;
    }
    if (tag.wire_type != ProtoReader::kLength || tag.field > 9) {
      FLOE_RETURN_IF_ERROR(in.Skip(tag.wire_type));
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(auto inner, in.Bytes());
    switch (tag.field) {
      case 2:
      case 7: {  // dates: sint32 days
        FLOE_ASSIGN_OR_RETURN(stats.int_range, ParseRange<int64_t>(inner, 1, 2, read_signed));
        break;
      }
      case 3: {
        FLOE_ASSIGN_OR_RETURN(
            stats.double_range,
            ParseRange<double>(inner, 1, 2, [](ProtoReader& r) { return r.Double(); }));
        break;
      }
      case 4:
      case 6: {  // decimals: their text
        FLOE_ASSIGN_OR_RETURN(stats.string_range,
                              ParseRange<std::string>(inner, 1, 2, read_string));
        break;
      }
      case 5: {
        ProtoReader bucket(inner);
        std::vector<uint64_t> counts;
        while (!bucket.done()) {
          FLOE_ASSIGN_OR_RETURN(auto t, bucket.Next());
          if (t.field == 1) {
            FLOE_RETURN_IF_ERROR(bucket.RepeatedVarint(t.wire_type, counts));
          } else {
            FLOE_RETURN_IF_ERROR(bucket.Skip(t.wire_type));
          }
        }
        if (!counts.empty()) stats.true_count = counts[0];
        break;
      }
      case 9: {
        // Prefer the UTC bounds (fields 3, 4) of newer writers over the local ones (1, 2).
        FLOE_ASSIGN_OR_RETURN(auto utc, ParseRange<int64_t>(inner, 3, 4, read_signed));
        if (utc) {
          stats.timestamp_range = utc;
        } else {
          FLOE_ASSIGN_OR_RETURN(stats.timestamp_range,
                                ParseRange<int64_t>(inner, 1, 2, read_signed));
        }
        break;
      }
      default:
        break;
    }
  }
  return stats;
}

Result<ColumnEncoding> ParseColumnEncoding(std::span<const std::byte> bytes) {
  ProtoReader in(bytes);
  ColumnEncoding encoding;
  while (!in.done()) {
    FLOE_ASSIGN_OR_RETURN(auto tag, in.Next());
    if (tag.field == 1 && tag.wire_type == ProtoReader::kVarint) {
      FLOE_ASSIGN_OR_RETURN(uint64_t kind, in.Varint());
      if (kind > static_cast<uint64_t>(EncodingKind::kDictionaryV2)) {
        return CorruptData("unknown ORC column encoding {}", kind);
      }
      encoding.kind = static_cast<EncodingKind>(kind);
    } else if (tag.field == 2 && tag.wire_type == ProtoReader::kVarint) {
      FLOE_ASSIGN_OR_RETURN(encoding.dictionary_size, Uint32(in));
    } else {
      FLOE_RETURN_IF_ERROR(in.Skip(tag.wire_type));
    }
  }
  return encoding;
}

Result<Stream> ParseStream(std::span<const std::byte> bytes) {
  ProtoReader in(bytes);
  Stream stream;
  while (!in.done()) {
    FLOE_ASSIGN_OR_RETURN(auto tag, in.Next());
    if (tag.wire_type != ProtoReader::kVarint || tag.field > 3) {
      FLOE_RETURN_IF_ERROR(in.Skip(tag.wire_type));
    } else if (tag.field == 3) {
      FLOE_ASSIGN_OR_RETURN(stream.length, in.Varint());
    } else {
      FLOE_ASSIGN_OR_RETURN(uint32_t value, Uint32(in));
      (tag.field == 1 ? stream.kind : stream.column) = value;
    }
  }
  return stream;
}

}  // namespace

Result<PostScript> ParsePostScript(std::span<const std::byte> bytes) {
  ProtoReader in(bytes);
  PostScript ps;
  while (!in.done()) {
    FLOE_ASSIGN_OR_RETURN(auto tag, in.Next());
    switch (tag.field) {
      case 1: {
        FLOE_ASSIGN_OR_RETURN(ps.footer_length, in.Varint());
        break;
      }
      case 2: {
        FLOE_ASSIGN_OR_RETURN(uint64_t kind, in.Varint());
        if (kind > static_cast<uint64_t>(CompressionKind::kZstd)) {
          return CorruptData("unknown ORC compression kind {}", kind);
        }
        ps.compression = static_cast<CompressionKind>(kind);
        break;
      }
      case 3: {
        FLOE_ASSIGN_OR_RETURN(ps.compression_block_size, in.Varint());
        break;
      }
      case 4:
        FLOE_RETURN_IF_ERROR(in.RepeatedVarint(tag.wire_type, ps.version));
        break;
      case 5: {
        FLOE_ASSIGN_OR_RETURN(ps.metadata_length, in.Varint());
        break;
      }
      case 6: {
        FLOE_ASSIGN_OR_RETURN(ps.writer_version, Uint32(in));
        break;
      }
      case 8000: {
        FLOE_ASSIGN_OR_RETURN(ps.magic, in.String());
        break;
      }
      default:
        FLOE_RETURN_IF_ERROR(in.Skip(tag.wire_type));
    }
  }
  if (ps.magic != "ORC") return CorruptData("the postscript's magic is not \"ORC\"");
  return ps;
}

Result<Footer> ParseFooter(std::span<const std::byte> bytes) {
  ProtoReader in(bytes);
  Footer footer;
  while (!in.done()) {
    FLOE_ASSIGN_OR_RETURN(auto tag, in.Next());
    if (tag.wire_type == ProtoReader::kVarint) {
      switch (tag.field) {
        case 1: {
          FLOE_ASSIGN_OR_RETURN(footer.header_length, in.Varint());
          continue;
        }
        case 2: {
          FLOE_ASSIGN_OR_RETURN(footer.content_length, in.Varint());
          continue;
        }
        case 6: {
          FLOE_ASSIGN_OR_RETURN(footer.number_of_rows, in.Varint());
          continue;
        }
        case 8: {
          FLOE_ASSIGN_OR_RETURN(footer.row_index_stride, Uint32(in));
          continue;
        }
        case 9: {
          FLOE_ASSIGN_OR_RETURN(footer.writer, Uint32(in));
          continue;
        }
      }
    } else if (tag.wire_type == ProtoReader::kLength) {
      switch (tag.field) {
        case 3: {
          FLOE_ASSIGN_OR_RETURN(auto inner, in.Bytes());
          FLOE_ASSIGN_OR_RETURN(auto stripe, ParseStripeInformation(inner));
          footer.stripes.push_back(stripe);
          continue;
        }
        case 4: {
          FLOE_ASSIGN_OR_RETURN(auto inner, in.Bytes());
          FLOE_ASSIGN_OR_RETURN(auto type, ParseType(inner));
          footer.types.push_back(std::move(type));
          continue;
        }
        case 5: {
          FLOE_ASSIGN_OR_RETURN(auto inner, in.Bytes());
          FLOE_ASSIGN_OR_RETURN(auto item, ParsePair(inner));
          footer.metadata.push_back(std::move(item));
          continue;
        }
        case 7: {
          FLOE_ASSIGN_OR_RETURN(auto inner, in.Bytes());
          FLOE_ASSIGN_OR_RETURN(auto stats, ParseColumnStatistics(inner));
          footer.statistics.push_back(std::move(stats));
          continue;
        }
        case 12: {
          FLOE_ASSIGN_OR_RETURN(footer.software_version, in.String());
          continue;
        }
      }
    }
    FLOE_RETURN_IF_ERROR(in.Skip(tag.wire_type));
  }
  return footer;
}

Result<StripeStatistics> ParseMetadata(std::span<const std::byte> bytes) {
  ProtoReader in(bytes);
  StripeStatistics out;
  while (!in.done()) {
    FLOE_ASSIGN_OR_RETURN(auto tag, in.Next());
    if (tag.field != 1 || tag.wire_type != ProtoReader::kLength) {
      FLOE_RETURN_IF_ERROR(in.Skip(tag.wire_type));
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(auto stripe_bytes, in.Bytes());
    ProtoReader stripe(stripe_bytes);
    auto& columns = out.emplace_back();
    while (!stripe.done()) {
      FLOE_ASSIGN_OR_RETURN(auto t, stripe.Next());
      if (t.field != 1 || t.wire_type != ProtoReader::kLength) {
        FLOE_RETURN_IF_ERROR(stripe.Skip(t.wire_type));
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(auto inner, stripe.Bytes());
      FLOE_ASSIGN_OR_RETURN(auto stats, ParseColumnStatistics(inner));
      columns.push_back(std::move(stats));
    }
  }
  return out;
}

Result<StripeFooter> ParseStripeFooter(std::span<const std::byte> bytes) {
  ProtoReader in(bytes);
  StripeFooter footer;
  while (!in.done()) {
    FLOE_ASSIGN_OR_RETURN(auto tag, in.Next());
    if (tag.wire_type != ProtoReader::kLength || tag.field > 3) {
      FLOE_RETURN_IF_ERROR(in.Skip(tag.wire_type));
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(auto inner, in.Bytes());
    if (tag.field == 1) {
      FLOE_ASSIGN_OR_RETURN(auto stream, ParseStream(inner));
      footer.streams.push_back(stream);
    } else if (tag.field == 2) {
      FLOE_ASSIGN_OR_RETURN(auto encoding, ParseColumnEncoding(inner));
      footer.columns.push_back(encoding);
    } else {
      footer.writer_timezone.assign(reinterpret_cast<const char*>(inner.data()), inner.size());
    }
  }
  return footer;
}

}  // namespace floe::orc
