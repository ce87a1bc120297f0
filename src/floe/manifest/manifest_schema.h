#pragma once

// The Avro schemas of manifests (manifest_entry) and manifest lists (manifest_file) as Iceberg
// writes them for each format version, with the spec's field ids, and the mapping of partition
// types between Iceberg and Avro (spec Appendix A). Errors: a format version other than 1-3, or a
// partition type Avro cannot hold (nested, variant).

#include <memory>

#include "floe/spec/type.h"
#include "floe/util/error.h"

namespace floe::avro {
class Schema;
struct Node;
}  // namespace floe::avro

namespace floe::manifest {

inline constexpr int kMinFormatVersion = 1;
inline constexpr int kMaxFormatVersion = 3;

// manifest_entry for a partition type (the struct PartitionSpec::PartitionType gives).
Result<std::shared_ptr<const avro::Schema>> ManifestEntrySchema(int format_version,
                                                                const StructType& partition_type);
// manifest_file.
Result<std::shared_ptr<const avro::Schema>> ManifestListSchema(int format_version);

// The Avro schema JSON of one value of a primitive Iceberg type (not wrapped in a union).
Result<Json> AvroTypeJson(const Type& type);
// The Iceberg type an Avro value of this node holds, by Appendix A (unions with null unwrapped).
Result<TypePtr> IcebergTypeOf(const avro::Node& node);

// Bytes of the fixed that holds a decimal of this precision (Appendix A, minBytesRequired).
int DecimalBytes(int precision);

}  // namespace floe::manifest
