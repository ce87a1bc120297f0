#include "floe/io/fault_injecting_file_io.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>

#include "floe/io/local_file_io.h"
#include "floe/io/location.h"
#include "floe/io/memory_file_io.h"
#include "floe/testing/testing.h"

namespace floe::io {
namespace {

// The error of a Result, or Ok: lets one check cover calls returning different value types.
template <typename T>
Status AsStatus(const Result<T>& result) {
  if (result) return Ok();
  return std::unexpected(result.error());
}

// Runs against the local filesystem and memory: what a crash leaves behind is checked on the base.
class FaultInjectingFileIOTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (GetParam()) {
      base_ = std::make_shared<LocalFileIO>();
      root_ = temp_.path().string();
    } else {
      base_ = std::make_shared<MemoryFileIO>();
      root_ = "/w";
      ASSERT_TRUE(base_->CreateDirectories(root_).has_value());
    }
    io_ = std::make_shared<FaultInjectingFileIO>(base_);
  }

  std::string At(std::string_view name) const { return JoinLocation(root_, name); }

  // What a restarted process finds: read through the base, never through the wrapper.
  std::optional<std::string> OnDisk(std::string_view name) {
    auto content = base_->ReadFile(At(name));
    if (!content) return std::nullopt;
    return *content;
  }

  std::vector<std::string> NamesOnDisk(std::string_view folder) {
    std::vector<std::string> names;
    auto entries = base_->List(folder);
    EXPECT_TRUE(entries.has_value()) << entries.error().ToString();
    if (entries) {
      for (const FileEntry& entry : *entries) names.push_back(entry.name);
    }
    return names;
  }

  static void ExpectInjected(const Status& status, std::string_view what) {
    ASSERT_FALSE(status.has_value()) << what;
    EXPECT_EQ(status.error().kind(), ErrorKind::kIO) << what;
  }

  floe::testing::TempDir temp_;
  std::shared_ptr<FileIO> base_;
  std::shared_ptr<FaultInjectingFileIO> io_;
  std::string root_;
};

TEST_P(FaultInjectingFileIOTest, PassesThroughAndCounts) {
  FLOE_ASSERT_OK(io_->WriteFileAtomically(At("m.json"), "{}", false));
  // One atomic write is one of each of these steps.
  EXPECT_EQ(io_->count(FileOp::kCreate), 1);
  EXPECT_EQ(io_->count(FileOp::kWrite), 1);
  EXPECT_EQ(io_->count(FileOp::kSync), 1);
  EXPECT_EQ(io_->count(FileOp::kClose), 1);
  EXPECT_EQ(io_->count(FileOp::kRename), 1);
  EXPECT_EQ(io_->count(FileOp::kSyncDirectory), 1);
  EXPECT_EQ(io_->count(FileOp::kDelete), 0);

  FLOE_ASSERT_OK_AND_ASSIGN(std::string content, io_->ReadFile(At("m.json")));
  EXPECT_EQ(content, "{}");
  EXPECT_EQ(io_->count(FileOp::kOpen), 1);
  EXPECT_EQ(io_->count(FileOp::kRead), 1);
  FLOE_ASSERT_OK(io_->Exists(At("m.json")));
  FLOE_ASSERT_OK(io_->List(root_));
  FLOE_ASSERT_OK(io_->CreateDirectories(At("d")));
  FLOE_ASSERT_OK(io_->Delete(At("d")));
  EXPECT_EQ(io_->count(FileOp::kGetInfo), 1);
  EXPECT_EQ(io_->count(FileOp::kList), 1);
  EXPECT_EQ(io_->count(FileOp::kCreateDirectories), 1);
  EXPECT_EQ(io_->count(FileOp::kDelete), 1);
  EXPECT_EQ(io_->faults_fired(), 0);
  EXPECT_FALSE(io_->crashed());
  EXPECT_EQ(OnDisk("m.json"), "{}");
}

TEST_P(FaultInjectingFileIOTest, FailsTheNthWriteOnly) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto output, io_->NewOutputFile(At("data.bin")));
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, output->Create());
  io_->Inject({.op = FileOp::kWrite, .nth = 3});
  FLOE_ASSERT_OK(writer->Write("1"));
  FLOE_ASSERT_OK(writer->Write("2"));
  auto third = writer->Write("3");
  ExpectInjected(third, "third write");
  EXPECT_NE(third.error().message().find("write #3"), std::string::npos) << third.error().message();
  EXPECT_NE(third.error().message().find("data.bin"), std::string::npos);
  EXPECT_EQ(writer->position(), 2);
  FLOE_ASSERT_OK(writer->Write("4"));
  FLOE_ASSERT_OK(writer->Close());
  EXPECT_EQ(OnDisk("data.bin"), "124");
  EXPECT_EQ(io_->faults_fired(), 1);
  EXPECT_FALSE(io_->crashed());
}

TEST_P(FaultInjectingFileIOTest, NthCountsFromInjection) {
  FLOE_ASSERT_OK(io_->WriteFile(At("a"), "a", false));
  FLOE_ASSERT_OK(io_->WriteFile(At("b"), "b", false));
  io_->Inject({.op = FileOp::kCreate, .nth = 1});
  ExpectInjected(io_->WriteFile(At("c"), "c", false), "next create");
  EXPECT_FALSE(base_->Exists(At("c")).value());
  FLOE_ASSERT_OK(io_->WriteFile(At("c"), "c", false));
  EXPECT_EQ(io_->count(FileOp::kCreate), 4);
}

TEST_P(FaultInjectingFileIOTest, LocationFilter) {
  io_->Inject({.op = FileOp::kRename, .nth = 2, .location_contains = "metadata.json"});
  FLOE_ASSERT_OK(io_->WriteFile(At("x"), "x", false));
  FLOE_ASSERT_OK(io_->Rename(At("x"), At("y")));  // does not match
  FLOE_ASSERT_OK(io_->WriteFile(At("t1"), "1", false));
  FLOE_ASSERT_OK(io_->RenameNoReplace(At("t1"), At("v1.metadata.json")));  // first match
  FLOE_ASSERT_OK(io_->WriteFile(At("t2"), "2", false));
  ExpectInjected(io_->RenameNoReplace(At("t2"), At("v2.metadata.json")), "second match");
  EXPECT_EQ(OnDisk("t2"), "2");
  EXPECT_FALSE(OnDisk("v2.metadata.json").has_value());
}

TEST_P(FaultInjectingFileIOTest, ClearFaults) {
  io_->Inject({.op = FileOp::kWrite});
  io_->Inject({.op = FileOp::kList, .action = FaultAction::kCrash});
  io_->ClearFaults();
  FLOE_ASSERT_OK(io_->WriteFile(At("a"), "a", false));
  FLOE_ASSERT_OK(io_->List(root_));
  EXPECT_EQ(io_->faults_fired(), 0);
}

// Every operation kind can be made to fail once, leaving the base untouched.
TEST_P(FaultInjectingFileIOTest, EveryOperationKindCanFail) {
  FLOE_ASSERT_OK(base_->WriteFile(At("existing"), "content", false));
  FLOE_ASSERT_OK(base_->WriteFile(At("doomed"), "", false));
  FLOE_ASSERT_OK_AND_ASSIGN(auto input, io_->NewInputFile(At("existing")));
  FLOE_ASSERT_OK_AND_ASSIGN(auto output, io_->NewOutputFile(At("new")));
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, output->Create());
  std::string buffer(3, '\0');
  auto bytes = std::as_writable_bytes(std::span(buffer));

  struct Case {
    FileOp op;
    std::function<Status()> run;
  };
  std::vector<Case> cases = {
      {FileOp::kOpen, [&]() -> Status { return AsStatus(io_->NewInputFile(At("existing"))); }},
      {FileOp::kRead, [&]() -> Status { return AsStatus(input->ReadAt(0, bytes)); }},
      {FileOp::kCreate, [&]() -> Status { return io_->WriteFile(At("other"), "x", false); }},
      {FileOp::kWrite, [&]() -> Status { return writer->Write("x"); }},
      {FileOp::kSync, [&]() -> Status { return writer->Sync(); }},
      {FileOp::kGetInfo, [&]() -> Status { return AsStatus(io_->GetInfo(At("existing"))); }},
      {FileOp::kDelete, [&]() -> Status { return io_->Delete(At("doomed")); }},
      {FileOp::kList, [&]() -> Status { return AsStatus(io_->List(root_)); }},
      {FileOp::kCreateDirectories, [&]() -> Status { return io_->CreateDirectories(At("dir")); }},
      {FileOp::kRename, [&]() -> Status { return io_->Rename(At("existing"), At("renamed")); }},
      {FileOp::kSyncDirectory, [&]() -> Status { return io_->SyncDirectory(root_); }},
      {FileOp::kClose, [&]() -> Status { return writer->Close(); }},
  };
  ASSERT_EQ(cases.size(), static_cast<size_t>(kFileOpCount));
  for (const Case& c : cases) {
    int64_t before = io_->count(c.op);
    io_->Inject({.op = c.op});
    Status status = c.run();
    ExpectInjected(status, FileOpName(c.op));
    EXPECT_NE(status.error().message().find("injected failure"), std::string::npos);
    EXPECT_EQ(io_->count(c.op), before + 1) << FileOpName(c.op);
  }
  EXPECT_EQ(io_->faults_fired(), kFileOpCount);
  EXPECT_FALSE(io_->crashed());
  // Nothing happened on the base.
  EXPECT_EQ(OnDisk("existing"), "content");
  EXPECT_EQ(OnDisk("new"), "");
  EXPECT_EQ(NamesOnDisk(root_), (std::vector<std::string>{"doomed", "existing", "new"}));
  // And every operation works again: the faults were one-shot.
  for (const Case& c : cases) FLOE_EXPECT_OK(c.run());
  EXPECT_EQ(OnDisk("renamed"), "content");
  EXPECT_EQ(OnDisk("new"), "x");
  EXPECT_EQ(OnDisk("other"), "x");
  EXPECT_EQ(NamesOnDisk(root_), (std::vector<std::string>{"dir", "new", "other", "renamed"}));
}

TEST_P(FaultInjectingFileIOTest, CrashStopsEverything) {
  FLOE_ASSERT_OK(io_->WriteFile(At("before"), "kept", false));
  FLOE_ASSERT_OK_AND_ASSIGN(auto input, io_->NewInputFile(At("before")));
  FLOE_ASSERT_OK_AND_ASSIGN(auto output, io_->NewOutputFile(At("log")));
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, output->Create());
  io_->Inject({.op = FileOp::kWrite, .nth = 2, .action = FaultAction::kCrash});
  FLOE_ASSERT_OK(writer->Write("record 1;"));
  FLOE_ASSERT_OK(writer->Sync());
  auto crashed = writer->Write("record 2;");
  ExpectInjected(crashed, "crashing write");
  EXPECT_NE(crashed.error().message().find("simulated crash"), std::string::npos);
  EXPECT_TRUE(io_->crashed());

  // Everything after the crash is refused, on the FileIO and on files opened before.
  ExpectInjected(writer->Write("record 3;"), "write after crash");
  ExpectInjected(writer->Sync(), "sync after crash");
  ExpectInjected(writer->Close(), "close after crash");
  std::string buffer(4, '\0');
  ExpectInjected(AsStatus(input->ReadAt(0, std::as_writable_bytes(std::span(buffer)))),
                 "read after crash");
  ExpectInjected(AsStatus(input->Size()), "size after crash");
  ExpectInjected(AsStatus(io_->NewInputFile(At("before"))), "open after crash");
  ExpectInjected(AsStatus(io_->NewOutputFile(At("x"))), "new output after crash");
  ExpectInjected(AsStatus(io_->Exists(At("before"))), "exists after crash");
  ExpectInjected(io_->Delete(At("before")), "delete after crash");
  ExpectInjected(AsStatus(io_->List(root_)), "list after crash");
  ExpectInjected(io_->CreateDirectories(At("d")), "mkdir after crash");
  ExpectInjected(io_->Rename(At("before"), At("after")), "rename after crash");
  ExpectInjected(io_->RenameNoReplace(At("before"), At("after")), "rename after crash");
  ExpectInjected(io_->SyncDirectory(root_), "sync folder after crash");
  ExpectInjected(io_->WriteFileAtomically(At("m"), "x", false), "atomic write after crash");
  // Injecting again does not revive it.
  io_->ClearFaults();
  ExpectInjected(AsStatus(io_->ReadFile(At("before"))), "read after clear");
  EXPECT_EQ(io_->faults_fired(), 1);

  // What the restarted process finds: the first record only, and the untouched file.
  EXPECT_EQ(OnDisk("log"), "record 1;");
  EXPECT_EQ(OnDisk("before"), "kept");
  EXPECT_EQ(NamesOnDisk(root_), (std::vector<std::string>{"before", "log"}));
}

TEST_P(FaultInjectingFileIOTest, TornWriteLeavesHalfARecord) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto output, io_->NewOutputFile(At("checkpoint.log")));
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, output->Create());
  FLOE_ASSERT_OK(writer->Write("abc"));
  FLOE_ASSERT_OK(writer->Sync());
  io_->Inject({.op = FileOp::kWrite, .action = FaultAction::kCrashTornWrite});
  ExpectInjected(writer->Write("0123456789"), "torn write");
  EXPECT_TRUE(io_->crashed());
  ExpectInjected(writer->Write("x"), "write after torn write");
  EXPECT_EQ(OnDisk("checkpoint.log"), "abc01234");
}

TEST_P(FaultInjectingFileIOTest, TornWriteFaultOnOtherOperationsIsACrash) {
  FLOE_ASSERT_OK(io_->WriteFile(At("a"), "a", false));
  io_->Inject({.op = FileOp::kRename, .action = FaultAction::kCrashTornWrite});
  ExpectInjected(io_->Rename(At("a"), At("b")), "rename");
  EXPECT_TRUE(io_->crashed());
  EXPECT_EQ(OnDisk("a"), "a");
  EXPECT_FALSE(OnDisk("b").has_value());
}

// WriteFileAtomically under a failure or a crash at each of its steps: the target holds either
// nothing or all the bytes, and the error says which.
TEST_P(FaultInjectingFileIOTest, AtomicWriteAtEveryFaultPoint) {
  const std::vector<FileOp> steps = {FileOp::kCreate, FileOp::kWrite,  FileOp::kSync,
                                     FileOp::kClose,  FileOp::kRename, FileOp::kSyncDirectory};
  int round = 0;
  for (FileOp step : steps) {
    for (FaultAction action : {FaultAction::kFail, FaultAction::kCrash}) {
      SCOPED_TRACE(fmt::format("{} at {}", action == FaultAction::kCrash ? "crash" : "fail",
                               FileOpName(step)));
      std::string folder = At(fmt::format("t{}", round++));
      ASSERT_TRUE(base_->CreateDirectories(folder).has_value());
      auto io = std::make_shared<FaultInjectingFileIO>(base_);
      io->Inject({.op = step, .action = action});
      std::string target = JoinLocation(folder, "v1.metadata.json");
      Status status = io->WriteFileAtomically(target, "metadata bytes", false);
      ASSERT_FALSE(status.has_value());
      EXPECT_NE(status.error().message().find("v1.metadata.json"), std::string::npos)
          << status.error().message();

      auto on_disk = base_->ReadFile(target);
      std::vector<std::string> names = NamesOnDisk(folder);
      if (step == FileOp::kSyncDirectory) {
        // The rename happened: the file is complete, but whether it would survive power loss is not
        // known, and a committer must not delete it.
        EXPECT_EQ(status.error().kind(), ErrorKind::kCommitStateUnknown);
        ASSERT_TRUE(on_disk.has_value());
        EXPECT_EQ(*on_disk, "metadata bytes");
        EXPECT_EQ(names, std::vector<std::string>{"v1.metadata.json"});
        continue;
      }
      EXPECT_EQ(status.error().kind(), ErrorKind::kIO);
      EXPECT_FALSE(on_disk.has_value());
      if (action == FaultAction::kFail || step == FileOp::kCreate) {
        // A failure is cleaned up; a crash before the create left nothing to clean.
        EXPECT_EQ(names, std::vector<std::string>{});
      } else {
        // A crash leaves the temporary file, hidden by its leading dot, for garbage collection.
        ASSERT_EQ(names.size(), 1u);
        EXPECT_TRUE(names[0].starts_with(".v1.metadata.json.")) << names[0];
        EXPECT_TRUE(names[0].ends_with(".tmp")) << names[0];
        auto temp = base_->ReadFile(JoinLocation(folder, names[0]));
        ASSERT_TRUE(temp.has_value());
        // Bytes are certain only once synced; before that any prefix may be there.
        if (step == FileOp::kClose) {
          EXPECT_EQ(*temp, "metadata bytes");
        } else {
          EXPECT_TRUE(std::string_view("metadata bytes").starts_with(*temp)) << *temp;
        }
      }
    }
  }
}

TEST_P(FaultInjectingFileIOTest, CrashDuringOverwriteKeepsTheOldVersion) {
  FLOE_ASSERT_OK(base_->WriteFile(At("version-hint.text"), "1", false));
  io_->Inject({.op = FileOp::kRename, .action = FaultAction::kCrash});
  ExpectInjected(io_->WriteFileAtomically(At("version-hint.text"), "2", true), "crash at rename");
  EXPECT_EQ(OnDisk("version-hint.text"), "1");
}

// The unsynced replace syncs neither the file nor its folder: faults injected there never fire.
TEST_P(FaultInjectingFileIOTest, ReplaceUnsyncedNeverSyncs) {
  FLOE_ASSERT_OK(base_->WriteFile(At("version-hint.text"), "1", false));
  for (FileOp step : {FileOp::kSync, FileOp::kSyncDirectory}) {
    auto io = std::make_shared<FaultInjectingFileIO>(base_);
    io->Inject({.op = step, .action = FaultAction::kFail});
    FLOE_ASSERT_OK(io->ReplaceFileUnsynced(At("version-hint.text"), FileOpName(step)));
    EXPECT_EQ(OnDisk("version-hint.text"), std::string(FileOpName(step)));
  }
  io_->Inject({.op = FileOp::kRename, .action = FaultAction::kCrash});
  ExpectInjected(io_->ReplaceFileUnsynced(At("version-hint.text"), "2"), "crash at rename");
  EXPECT_EQ(OnDisk("version-hint.text"), std::string(FileOpName(FileOp::kSyncDirectory)));
}

INSTANTIATE_TEST_SUITE_P(Backends, FaultInjectingFileIOTest, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Local" : "Memory";
                         });

}  // namespace
}  // namespace floe::io
