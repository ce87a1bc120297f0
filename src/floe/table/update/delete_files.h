#pragma once

// Removes data files from the table by path or by a row filter (Iceberg's DeleteFiles): a file is
// removed when all of its rows match the filter, judged from partition values and column metrics;
// a file where only some rows may match is an error (kInvalidArgument), since deleting rows
// inside files needs a row delta. Delete files whose rows all match are removed too. Operation
// "delete". With ValidateFilesExist, a path not live in the table fails the commit.

#include <string>

#include "floe/table/update/merging_snapshot_producer.h"

namespace floe::table {

class DeleteFiles : public MergingSnapshotProducer {
 public:
  explicit DeleteFiles(Table& table) : MergingSnapshotProducer(table) {}

  DeleteFiles& DeleteFile(std::string path);
  DeleteFiles& DeleteFromRowFilter(expr::ExprPtr filter);
  DeleteFiles& ValidateFilesExist();

 protected:
  std::string_view operation() const override { return kOperationDelete; }
};

}  // namespace floe::table
