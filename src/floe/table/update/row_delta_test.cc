#include "floe/table/update/row_delta.h"

#include <gtest/gtest.h>

#include "floe/io/memory_file_io.h"
#include "floe/table/update/delete_files.h"
#include "floe/table/update/fast_append.h"
#include "floe/table/update/rewrite_files.h"
#include "floe/table/update/test_table.h"
#include "floe/testing/testing.h"

namespace floe::table {
namespace {

using test::DataFile;
using test::PositionDeletes;

using RowDeltaTest = test::TwoFileTableTest;

TEST_F(RowDeltaTest, AddsDeleteManifestAndCounts) {
  auto delta = t_.table->NewRowDelta();
  delta->AddDeletes(PositionDeletes("/d/a1-del.parquet", 3, "/d/a1.parquet", "a"))
      .AddRows(DataFile("/d/a2.parquet", 2, "a"));
  FLOE_ASSERT_OK(delta->Commit());
  SnapshotPtr s = t_.table->metadata()->current_snapshot();
  EXPECT_EQ(s->operation(), "overwrite");
  EXPECT_EQ(s->summary.at("added-delete-files"), "1");
  EXPECT_EQ(s->summary.at("added-position-delete-files"), "1");
  EXPECT_EQ(s->summary.at("added-position-deletes"), "3");
  EXPECT_EQ(s->summary.at("total-position-deletes"), "3");
  EXPECT_EQ(s->summary.at("total-delete-files"), "1");
  EXPECT_EQ(s->summary.at("total-records"), "32");
  auto manifests = test::ManifestsOf(*t_.io, *s);
  int deletes = 0;
  for (const auto& manifest : manifests) {
    if (manifest.content == manifest::ManifestContent::kDeletes) {
      ++deletes;
      EXPECT_EQ(manifest.sequence_number, 2);
      EXPECT_EQ(manifest.added_files_count, 1);
    }
  }
  EXPECT_EQ(deletes, 1);
  for (const auto& entry : test::EntriesOf(*t_.io, *s)) {
    if (entry.data_file.content == manifest::FileContent::kPositionDeletes) {
      EXPECT_EQ(entry.sequence_number, 2);
      EXPECT_EQ(entry.data_file.referenced_data_file, "/d/a1.parquet");
    }
  }
  // Deletes only: operation "delete".
  auto only = t_.table->NewRowDelta();
  only->AddDeletes(PositionDeletes("/d/b1-del.parquet", 1, "/d/b1.parquet", "b"));
  FLOE_ASSERT_OK(only->Commit());
  EXPECT_EQ(t_.table->metadata()->current_snapshot()->operation(), "delete");
}

TEST_F(RowDeltaTest, ReferencedDataFileRemovedConcurrentlyFails) {
  auto stale = t_.Open();
  FLOE_ASSERT_OK(t_.table->NewDeleteFiles()->DeleteFile("/d/a1.parquet").Commit());
  auto delta = stale->NewRowDelta();
  delta->AddDeletes(PositionDeletes("/d/a1-del.parquet", 3, "/d/a1.parquet", "a"))
      .ValidateFromSnapshot(start_);
  Status status = delta->Commit();
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_FALSE(status.error().retryable());
  EXPECT_NE(status.error().message().find("/d/a1.parquet"), std::string::npos);
  // The files of its attempts were cleaned up: only the winner's manifests remain referenced.
  auto listing = t_.io->List("/warehouse/db/t/metadata").value();
  std::set<std::string> referenced;
  for (const SnapshotPtr& snapshot : t_.table->metadata()->snapshots()) {
    referenced.insert(snapshot->manifest_list);
    for (const auto& manifest : test::ManifestsOf(*t_.io, *snapshot)) {
      referenced.insert(manifest.manifest_path);
    }
  }
  for (const auto& entry : listing) {
    if (entry.name.ends_with(".avro")) {
      EXPECT_TRUE(referenced.contains(entry.location)) << entry.name;
    }
  }
}

TEST_F(RowDeltaTest, ConflictingDataAndDeletesUnderFilter) {
  auto stale = t_.Open();
  FLOE_ASSERT_OK(t_.table->NewFastAppend()->AppendFile(DataFile("/d/b2.parquet", 1, "b")).Commit());
  auto on_a = stale->NewRowDelta();
  on_a->AddDeletes(PositionDeletes("/d/a1-del.parquet", 1, "/d/a1.parquet", "a"))
      .ValidateFromSnapshot(start_)
      .ConflictDetectionFilter(expr::Equal("category", Literal::String("a")))
      .ValidateNoConflictingDataFiles()
      .ValidateNoConflictingDeleteFiles();
  FLOE_ASSERT_OK(on_a->Commit());  // the append to b does not touch a: retried and committed

  auto on_b = stale->NewRowDelta();
  on_b->AddDeletes(PositionDeletes("/d/b1-del.parquet", 1, "/d/b1.parquet", "b"))
      .ValidateFromSnapshot(start_)
      .ConflictDetectionFilter(expr::Equal("category", Literal::String("b")))
      .ValidateNoConflictingDataFiles();
  Status status = on_b->Commit();
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_NE(status.error().message().find("/d/b2.parquet"), std::string::npos);
}

TEST_F(RowDeltaTest, RewriteKeepsSequenceNumberAndRefusesNewDeletes) {
  auto stale = t_.Open();
  auto rewrite = t_.table->NewRewriteFiles();
  rewrite->DeleteFile(DataFile("/d/a1.parquet", 10, "a"))
      .AddFile(DataFile("/d/a1-compact.parquet", 10, "a"))
      .DataSequenceNumber(1);
  FLOE_ASSERT_OK(rewrite->Commit());
  SnapshotPtr s = t_.table->metadata()->current_snapshot();
  EXPECT_EQ(s->operation(), "replace");
  EXPECT_EQ(s->sequence_number, 2);
  EXPECT_EQ(s->summary.at("total-records"), "30");
  for (const auto& entry : test::EntriesOf(*t_.io, *s)) {
    if (entry.data_file.file_path == "/d/a1-compact.parquet") {
      EXPECT_EQ(entry.status, manifest::EntryStatus::kAdded);
      EXPECT_EQ(entry.sequence_number, 1);
      EXPECT_EQ(entry.file_sequence_number, 2);
    }
  }
  // A rewrite of b1 racing with a delete for b1 must fail: the rewrite would drop the delete.
  FLOE_ASSERT_OK(t_.table->NewRowDelta()
                     ->AddDeletes(PositionDeletes("/d/b1-del.parquet", 1, "/d/b1.parquet", "b"))
                     .Commit());
  auto late = stale->NewRewriteFiles();
  late->DeleteFile(DataFile("/d/b1.parquet", 20, "b"))
      .AddFile(DataFile("/d/b1-compact.parquet", 20, "b"))
      .ValidateFromSnapshot(start_);
  Status status = late->Commit();
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind(), ErrorKind::kCommitFailed);
  // Rewriting a file that is not in the table fails too.
  auto missing = t_.table->NewRewriteFiles();
  missing->DeleteFile(DataFile("/d/nope.parquet", 1, "a"))
      .AddFile(DataFile("/d/x.parquet", 1, "a"));
  EXPECT_FALSE(missing->Commit());
}

TEST_F(RowDeltaTest, DeleteFilesByPathAndFilter) {
  auto by_path = t_.table->NewDeleteFiles();
  by_path->DeleteFile("/d/a1.parquet").ValidateFilesExist();
  FLOE_ASSERT_OK(by_path->Commit());
  EXPECT_EQ(test::LiveFiles(*t_.table), (std::set<std::string>{"/d/b1.parquet"}));
  EXPECT_EQ(t_.table->metadata()->current_snapshot()->operation(), "delete");
  auto again = t_.table->NewDeleteFiles();
  again->DeleteFile("/d/a1.parquet").ValidateFilesExist();
  EXPECT_FALSE(again->Commit());
  FLOE_ASSERT_OK(t_.table->NewDeleteFiles()
                     ->DeleteFromRowFilter(expr::Equal("category", Literal::String("b")))
                     .Commit());
  EXPECT_TRUE(test::LiveFiles(*t_.table).empty());
  SnapshotPtr s = t_.table->metadata()->current_snapshot();
  EXPECT_EQ(s->summary.at("total-data-files"), "0");
  EXPECT_EQ(s->summary.at("total-records"), "0");
}

}  // namespace
}  // namespace floe::table
