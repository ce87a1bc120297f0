#pragma once

// Where a table's new files go (Iceberg Java's LocationProviders, which other engines follow):
//
//   default layout   <data>/<partition path>/<file>          <data> = write.data.path, else the
//                                                            legacy write.folder-storage.path,
//                                                            else <table location>/data
//   object storage   <data>/<hash>/<partition path>/<file>   write.object-storage.enabled=true;
//                                                            <data> may also come from the legacy
//                                                            write.object-storage.path
//   metadata         <metadata>/<file>                       write.metadata.path, else
//                                                            <table location>/metadata
//
// The object-storage <hash> spreads files over many key prefixes: the low 20 bits of the Murmur3-32
// hash of "<partition path>/<file>" (or of "<file>" when unpartitioned), as binary digits, cut
// into directories of 4, 4, 4 and 8 digits ("0101/0110/1001/10110010"). With
// write.object-storage.partitioned-paths=false the partition path is left out and the last 8
// digits join the file name with '-' ("0110/1010/0011/11101000-f.parquet"). When <data> lies
// outside the table location, "<parent>/<table>" of the table location follows the hash so that
// tables sharing a data path stay apart.
//
// What can go wrong: a partition tuple whose size differs from the spec's (kInvalidArgument).

#include <map>
#include <span>
#include <string>
#include <string_view>

#include "floe/spec/literal.h"
#include "floe/spec/partition_spec.h"
#include "floe/util/error.h"

namespace floe::table {

class LocationProvider {
 public:
  LocationProvider(std::string_view table_location,
                   const std::map<std::string, std::string>& properties);

  // An unpartitioned data or delete file.
  std::string NewDataLocation(std::string_view file_name) const;
  // A file of the partition `values` (one transformed value per field of spec).
  Result<std::string> NewDataLocation(const PartitionSpec& spec, std::span<const Literal> values,
                                      std::string_view file_name) const;
  std::string NewMetadataLocation(std::string_view file_name) const;

  bool object_storage() const { return object_storage_; }
  const std::string& data_location() const { return data_location_; }

 private:
  std::string data_location_;
  std::string metadata_location_;
  std::string context_;  // object storage with <data> outside the table: "<parent>/<table>"
  bool object_storage_ = false;
  bool partitioned_paths_ = true;
};

// The object-storage hash directories of a name: "0101/0110/1001/10110010".
std::string ObjectStorageHashDirs(std::string_view name);

}  // namespace floe::table
