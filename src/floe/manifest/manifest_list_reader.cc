#include <charconv>

#include "floe/format/avro/container.h"
#include "floe/format/avro/datum.h"
#include "floe/format/avro/schema.h"
#include "floe/io/file_io.h"
#include "floe/manifest/manifest_reader.h"

// Manifest lists are small (one record per manifest), so they go through the generic Datum reader.

namespace floe::manifest {
namespace {

using avro::Datum;
using avro::Node;

int32_t ListFieldId(const avro::Field& field) {
  if (field.field_id) return *field.field_id;
  static constexpr std::pair<std::string_view, int32_t> kNames[] = {
      {"manifest_path", 500},
      {"manifest_length", 501},
      {"partition_spec_id", 502},
      {"added_snapshot_id", 503},
      {"added_files_count", 504},
      {"added_data_files_count", 504},
      {"existing_files_count", 505},
      {"existing_data_files_count", 505},
      {"deleted_files_count", 506},
      {"deleted_data_files_count", 506},
      {"partitions", 507},
      {"added_rows_count", 512},
      {"existing_rows_count", 513},
      {"deleted_rows_count", 514},
      {"sequence_number", 515},
      {"min_sequence_number", 516},
      {"content", 517},
      {"key_metadata", 519},
      {"first_row_id", 520},
      {"contains_null", 509},
      {"contains_nan", 518},
      {"lower_bound", 510},
      {"upper_bound", 511}};
  for (const auto& [name, id] : kNames) {
    if (name == field.name) return id;
  }
  return -1;
}

// The value of a union unwrapped; nullptr for null.
const Datum* Value(const Datum& d) {
  const Datum* v = &d;
  while (v->is<avro::Union>()) v = v->as<avro::Union>().value.get();
  if (v == nullptr || v->is_null()) return nullptr;
  return v;
}

std::optional<int64_t> Integral(const Datum& d) {
  const Datum* v = Value(d);
  if (v == nullptr) return std::nullopt;
  if (v->is<int32_t>()) return v->as<int32_t>();
  if (v->is<int64_t>()) return v->as<int64_t>();
  return std::nullopt;
}

std::optional<std::string> Text(const Datum& d) {
  const Datum* v = Value(d);
  if (v == nullptr) return std::nullopt;
  if (v->is<std::string>()) return v->as<std::string>();
  if (v->is<avro::Bytes>()) return v->as<avro::Bytes>().value;
  return std::nullopt;
}

const Node* Unwrap(const Node* n) {
  if (n->type == avro::Type::kUnion) {
    for (const Node* b : n->branches) {
      if (b->type != avro::Type::kNull) return b;
    }
  }
  return n;
}

Result<std::optional<int32_t>> Int32(const Datum& d, std::string_view what) {
  auto v = Integral(d);
  if (!v) return std::optional<int32_t>();
  if (*v < INT32_MIN || *v > INT32_MAX) return CorruptData("{} {} out of range", what, *v);
  return std::optional<int32_t>(static_cast<int32_t>(*v));
}

Result<FieldSummary> ReadSummary(const Node& node, const Datum& datum) {
  FieldSummary s;
  const Datum* v = Value(datum);
  if (v == nullptr || !v->is<avro::Record>() || node.type != avro::Type::kRecord) {
    return CorruptData("a partition field summary is not a record");
  }
  const auto& fields = v->as<avro::Record>().fields;
  for (size_t i = 0; i < node.fields.size() && i < fields.size(); ++i) {
    const Datum* f = Value(fields[i]);
    switch (ListFieldId(node.fields[i])) {
      case 509:
        s.contains_null = f != nullptr && f->is<bool>() && f->as<bool>();
        break;
      case 518:
        if (f != nullptr && f->is<bool>()) s.contains_nan = f->as<bool>();
        break;
      case 510:
        s.lower_bound = Text(fields[i]);
        break;
      case 511:
        s.upper_bound = Text(fields[i]);
        break;
      default:
        break;
    }
  }
  return s;
}

Result<ManifestFile> ReadManifestFile(const Node& root, const Datum& datum) {
  ManifestFile m;
  const auto& fields = datum.as<avro::Record>().fields;
  bool has_path = false;
  for (size_t i = 0; i < root.fields.size(); ++i) {
    const Datum& f = fields[i];
    switch (ListFieldId(root.fields[i])) {
      case 500:
        if (auto t = Text(f)) {
          m.manifest_path = std::move(*t);
          has_path = true;
        }
        break;
      case 501:
        m.manifest_length = Integral(f).value_or(0);
        break;
      case 502: {
        FLOE_ASSIGN_OR_RETURN(auto v, Int32(f, "partition_spec_id"));
        m.partition_spec_id = v.value_or(0);
        break;
      }
      case 503:
        m.added_snapshot_id = Integral(f).value_or(0);
        break;
      case 504: {
        FLOE_ASSIGN_OR_RETURN(m.added_files_count, Int32(f, "added_files_count"));
        break;
      }
      case 505: {
        FLOE_ASSIGN_OR_RETURN(m.existing_files_count, Int32(f, "existing_files_count"));
        break;
      }
      case 506: {
        FLOE_ASSIGN_OR_RETURN(m.deleted_files_count, Int32(f, "deleted_files_count"));
        break;
      }
      case 507: {
        const Datum* list = Value(f);
        if (list == nullptr) break;
        if (!list->is<avro::Array>()) return CorruptData("partitions is not a list");
        const Node* items = Unwrap(Unwrap(root.fields[i].type)->items);
        std::vector<FieldSummary> summaries;
        for (const Datum& item : list->as<avro::Array>().items) {
          FLOE_ASSIGN_OR_RETURN(FieldSummary s, ReadSummary(*items, item));
          summaries.push_back(std::move(s));
        }
        m.partitions = std::move(summaries);
        break;
      }
      case 512:
        m.added_rows_count = Integral(f);
        break;
      case 513:
        m.existing_rows_count = Integral(f);
        break;
      case 514:
        m.deleted_rows_count = Integral(f);
        break;
      case 515:
        m.sequence_number = Integral(f).value_or(0);
        break;
      case 516:
        m.min_sequence_number = Integral(f).value_or(0);
        break;
      case 517: {
        int64_t c = Integral(f).value_or(0);
        if (c != 0 && c != 1) return CorruptData("manifest content {} is not 0 or 1", c);
        m.content = static_cast<ManifestContent>(c);
        break;
      }
      case 519:
        m.key_metadata = Text(f);
        break;
      case 520:
        m.first_row_id = Integral(f);
        break;
      default:
        break;
    }
  }
  if (!has_path) return CorruptData("a manifest list entry without manifest_path");
  return m;
}

}  // namespace

Result<std::vector<ManifestFile>> ReadManifestList(std::span<const std::byte> bytes,
                                                   const std::string& name) {
  FLOE_ASSIGN_OR_RETURN(auto reader, avro::ContainerReader::Open(bytes, name));
  FLOE_ASSIGN_OR_RETURN(ManifestKind kind, DetectKind(*reader));
  if (kind != ManifestKind::kManifestList) {
    return InvalidArgument("{}: a manifest, not a manifest list", name);
  }
  const Node& root = reader->writer_schema()->root();
  std::vector<ManifestFile> out;
  Datum datum;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, reader->Next(datum));
    if (!more) break;
    auto m = ReadManifestFile(root, datum);
    if (!m) {
      Error error = std::move(m).error();
      error.AddContext(name + ": entry " + std::to_string(out.size()));
      return std::unexpected(std::move(error));
    }
    out.push_back(std::move(*m));
  }
  return out;
}

Result<std::vector<ManifestFile>> ReadManifestList(const io::InputFile& file) {
  FLOE_ASSIGN_OR_RETURN(std::string bytes, file.ReadAll());
  return ReadManifestList(std::as_bytes(std::span(bytes)), file.location());
}

}  // namespace floe::manifest
