#include "floe/stream/checkpoint_storage.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "floe/io/fault_injecting_file_io.h"
#include "floe/io/local_file_io.h"
#include "floe/io/location.h"
#include "floe/testing/testing.h"

namespace floe::stream {
namespace {

namespace fs = std::filesystem;

// A checkpoint whose content depends on `id`, with the awkward cases: an operator without
// subtasks, subtasks without entries, empty entries, every byte value, and a large entry.
CompletedCheckpoint MakeCheckpoint(int64_t id) {
  CompletedCheckpoint checkpoint;
  checkpoint.checkpoint_id = id;
  checkpoint.timestamp_ms = 1'700'000'000'000 + id;
  checkpoint.operators["empty"] = {};
  OperatorState& sink = checkpoint.operators["sink"];
  for (int subtask = 0; subtask < 5; ++subtask) {
    std::vector<std::string>& entries = sink.subtasks.emplace_back();
    for (int e = 0; e < subtask; ++e) entries.push_back(fmt::format("{}:{}:{}", id, subtask, e));
    if (subtask == 2) entries.push_back("");
  }
  std::string binary;
  for (int b = 0; b < 256; ++b) binary.push_back(static_cast<char>(b));
  checkpoint.operators["source#enumerator"].subtasks = {{binary, std::string(3, '\0')}};
  checkpoint.operators["big"].subtasks = {{std::string(1 << 20, static_cast<char>('a' + id % 26))},
                                          {}};
  return checkpoint;
}

void ExpectSameContent(const CompletedCheckpoint& actual, const CompletedCheckpoint& expected) {
  EXPECT_EQ(actual.checkpoint_id, expected.checkpoint_id);
  EXPECT_EQ(actual.timestamp_ms, expected.timestamp_ms);
  ASSERT_EQ(actual.operators.size(), expected.operators.size());
  for (const auto& [name, state] : expected.operators) {
    auto it = actual.operators.find(name);
    ASSERT_NE(it, actual.operators.end()) << name;
    EXPECT_EQ(it->second.subtasks, state.subtasks) << name;
  }
}

class CheckpointStorageTest : public ::testing::Test {
 protected:
  std::string Dir() const { return temp_.path().string(); }
  std::string JobFolder() const { return (temp_.path() / "job").string(); }
  std::string Folder(int64_t id) const { return fmt::format("{}/chk-{}", JobFolder(), id); }

  std::unique_ptr<CheckpointStorage> OpenStorage(io::FileIO& io, int retained = 1) {
    auto storage = CheckpointStorage::Open(io, Dir(), "job", retained);
    EXPECT_TRUE(storage.has_value()) << storage.error().ToString();
    return storage ? std::move(*storage) : nullptr;
  }

  testing::TempDir temp_;
  io::LocalFileIO io_;
};

TEST_F(CheckpointStorageTest, RoundTripsEveryShapeOfState) {
  auto storage = OpenStorage(io_);
  FLOE_ASSERT_OK_AND_ASSIGN(auto none, storage->LoadLatest());
  EXPECT_FALSE(none.has_value());
  FLOE_ASSERT_OK_AND_ASSIGN(int64_t first, storage->NextCheckpointId());
  EXPECT_EQ(first, 1);

  CompletedCheckpoint written = MakeCheckpoint(1);
  FLOE_ASSERT_OK(storage->Write(written));
  EXPECT_TRUE(fs::exists(Folder(1) + "/_checkpoint"));

  FLOE_ASSERT_OK_AND_ASSIGN(auto latest, storage->LoadLatest());
  ASSERT_TRUE(latest.has_value());
  ExpectSameContent(*latest, written);
  EXPECT_FALSE(latest->savepoint);
  EXPECT_EQ(latest->job_name, "job");
  EXPECT_EQ(latest->location, Folder(1));
  EXPECT_TRUE(storage->skipped().empty());

  FLOE_ASSERT_OK_AND_ASSIGN(auto by_folder, storage->Load(Folder(1)));
  ExpectSameContent(by_folder, written);
  FLOE_ASSERT_OK_AND_ASSIGN(auto by_file, storage->Load(Folder(1) + "/_checkpoint"));
  ExpectSameContent(by_file, written);

  // A new storage object (a restarted process) finds the same.
  auto reopened = OpenStorage(io_);
  FLOE_ASSERT_OK_AND_ASSIGN(auto again, reopened->LoadLatest());
  ASSERT_TRUE(again.has_value());
  ExpectSameContent(*again, written);
  FLOE_ASSERT_OK_AND_ASSIGN(int64_t next, reopened->NextCheckpointId());
  EXPECT_EQ(next, 2);
}

TEST_F(CheckpointStorageTest, KeepsTheNewestRetainedAndRemovesLeftovers) {
  auto storage = OpenStorage(io_, /*retained=*/2);
  for (int64_t id = 1; id <= 3; ++id) FLOE_ASSERT_OK(storage->Write(MakeCheckpoint(id)));
  // An attempt that died before its completion record, older and newer than complete ones.
  fs::create_directories(Folder(4));
  std::ofstream(Folder(4) + "/operators.state") << "partial";
  FLOE_ASSERT_OK(storage->Write(MakeCheckpoint(5)));
  fs::create_directories(Folder(9));
  EXPECT_FALSE(fs::exists(Folder(1)));
  EXPECT_FALSE(fs::exists(Folder(2)));
  EXPECT_TRUE(fs::exists(Folder(3)));
  EXPECT_FALSE(fs::exists(Folder(4)));
  EXPECT_TRUE(fs::exists(Folder(5)));

  // Ids go above every folder ever written, complete or not.
  FLOE_ASSERT_OK_AND_ASSIGN(int64_t next, storage->NextCheckpointId());
  EXPECT_EQ(next, 10);
  FLOE_ASSERT_OK_AND_ASSIGN(auto latest, storage->LoadLatest());
  ASSERT_TRUE(latest.has_value());
  EXPECT_EQ(latest->checkpoint_id, 5);

  // An id already complete is never overwritten.
  auto again = storage->Write(MakeCheckpoint(5));
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().kind(), ErrorKind::kAlreadyExists);
}

TEST_F(CheckpointStorageTest, SavepointsAreLoadableAndNeverRemoved) {
  auto storage = OpenStorage(io_);
  std::string savepoint_folder = (temp_.path() / "savepoints" / "sp-1").string();
  CompletedCheckpoint content = MakeCheckpoint(7);
  FLOE_ASSERT_OK_AND_ASSIGN(std::string location,
                            storage->WriteSavepoint(content, savepoint_folder));
  EXPECT_EQ(location, savepoint_folder);
  // A savepoint inside the job folder, under a checkpoint's name, survives retention too.
  FLOE_ASSERT_OK(storage->WriteSavepoint(MakeCheckpoint(2), Folder(2)));
  for (int64_t id = 3; id <= 5; ++id) FLOE_ASSERT_OK(storage->Write(MakeCheckpoint(id)));
  EXPECT_TRUE(fs::exists(Folder(2) + "/_checkpoint"));
  EXPECT_FALSE(fs::exists(Folder(3)));

  FLOE_ASSERT_OK_AND_ASSIGN(auto loaded, storage->Load(location));
  EXPECT_TRUE(loaded.savepoint);
  EXPECT_EQ(loaded.location, savepoint_folder);
  ExpectSameContent(loaded, content);

  auto twice = storage->WriteSavepoint(content, savepoint_folder);
  ASSERT_FALSE(twice.has_value());
  EXPECT_EQ(twice.error().kind(), ErrorKind::kAlreadyExists);

  auto missing = storage->Load((temp_.path() / "nothing").string());
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
}

TEST_F(CheckpointStorageTest, RejectsBadArguments) {
  EXPECT_FALSE(CheckpointStorage::Open(io_, Dir(), "a/b", 1).has_value());
  EXPECT_FALSE(CheckpointStorage::Open(io_, Dir(), "", 1).has_value());
  EXPECT_FALSE(CheckpointStorage::Open(io_, Dir(), "job", 0).has_value());
  EXPECT_FALSE(CheckpointStorage::Open(io_, "", "job", 1).has_value());
  auto storage = OpenStorage(io_);
  EXPECT_FALSE(storage->Write(MakeCheckpoint(0)).has_value());
}

// Every way to damage a file of the newest checkpoint: it is refused with kCorruptData naming
// the file and an offset, and LoadLatest falls back to the one before, intact.
class CheckpointCorruptionTest : public CheckpointStorageTest,
                                 public ::testing::WithParamInterface<std::string> {};

TEST_P(CheckpointCorruptionTest, TruncatedAndFlippedFilesAreRefused) {
  auto storage = OpenStorage(io_, /*retained=*/2);
  // Small checkpoints, so that every byte can be damaged in turn.
  CompletedCheckpoint first;
  first.checkpoint_id = 1;
  first.operators["op"].subtasks = {{"one"}, {}};
  CompletedCheckpoint second;
  second.checkpoint_id = 2;
  second.operators["op"].subtasks = {{"two", ""}, {std::string("\0\xff", 2)}};
  second.operators["other"] = {};
  FLOE_ASSERT_OK(storage->Write(first));
  FLOE_ASSERT_OK(storage->Write(second));

  std::string path = Folder(2) + "/" + GetParam();
  std::string original = testing::ReadFileOrDie(path);
  ASSERT_FALSE(original.empty());
  auto expect_refused = [&](std::string_view what) {
    auto loaded = storage->Load(Folder(2));
    ASSERT_FALSE(loaded.has_value()) << what;
    EXPECT_EQ(loaded.error().kind(), ErrorKind::kCorruptData) << what;
    EXPECT_NE(loaded.error().message().find(path), std::string::npos) << loaded.error().message();
    EXPECT_NE(loaded.error().message().find("offset "), std::string::npos)
        << loaded.error().message();

    auto latest = storage->LoadLatest();
    ASSERT_TRUE(latest.has_value()) << latest.error().ToString();
    ASSERT_TRUE(latest->has_value());
    ExpectSameContent(**latest, first);
    ASSERT_EQ(storage->skipped().size(), 1u);
    EXPECT_NE(storage->skipped()[0].message().find(path), std::string::npos);
  };
  auto write = [&](const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  };
  for (size_t size = 0; size < original.size(); ++size) {
    write(original.substr(0, size));
    expect_refused(fmt::format("truncated to {} bytes", size));
  }
  for (size_t at = 0; at < original.size(); ++at) {
    for (int bit : {0, 7}) {
      std::string flipped = original;
      flipped[at] = static_cast<char>(flipped[at] ^ (1 << bit));
      write(flipped);
      expect_refused(fmt::format("bit {} of byte {} flipped", bit, at));
    }
  }
  write(original + "x");
  expect_refused("a byte appended");
  fs::remove(path);
  if (GetParam() == "operators.state") expect_refused("the file removed");

  // With the older one damaged too, there is nothing to restore: an error, not a fresh start.
  write(original.substr(0, 5));
  std::ofstream(Folder(1) + "/operators.state", std::ios::trunc) << "x";
  auto latest = storage->LoadLatest();
  ASSERT_FALSE(latest.has_value());
  EXPECT_EQ(latest.error().kind(), ErrorKind::kCorruptData);
}

INSTANTIATE_TEST_SUITE_P(Files, CheckpointCorruptionTest,
                         ::testing::Values("operators.state", "_checkpoint"),
                         [](const auto& info) { return info.index == 0 ? "state" : "completion"; });

// A process dying at every file operation of checkpoint N: a restarted process finds N-1 intact
// as the latest, or N complete when the crash came after its completion record was renamed into
// place; and it can go on with the next id.
TEST(CheckpointCrashTest, ACrashAtEveryStepLeavesTheLastCompleteCheckpoint) {
  using io::FileOp;
  int crashes = 0;
  for (FileOp op : {FileOp::kCreateDirectories, FileOp::kCreate, FileOp::kWrite, FileOp::kSync,
                    FileOp::kClose, FileOp::kRename, FileOp::kSyncDirectory, FileOp::kGetInfo,
                    FileOp::kList, FileOp::kOpen, FileOp::kRead, FileOp::kDelete}) {
    for (io::FaultAction action : {io::FaultAction::kCrash, io::FaultAction::kCrashTornWrite}) {
      if (action == io::FaultAction::kCrashTornWrite && op != FileOp::kWrite) continue;
      for (int64_t nth = 1;; ++nth) {
        std::string what = fmt::format("crash at {} #{}", io::FileOpName(op), nth);
        testing::TempDir temp;
        auto base = std::make_shared<io::LocalFileIO>();
        std::string dir = temp.path().string();
        {
          FLOE_ASSERT_OK_AND_ASSIGN(auto storage, CheckpointStorage::Open(*base, dir, "job", 1));
          FLOE_ASSERT_OK(storage->Write(MakeCheckpoint(1)));
          FLOE_ASSERT_OK(storage->Write(MakeCheckpoint(2)));
        }
        io::FaultInjectingFileIO faulty(base);
        faulty.Inject({.op = op, .nth = nth, .action = action});
        Status written;
        {
          FLOE_ASSERT_OK_AND_ASSIGN(auto storage, CheckpointStorage::Open(faulty, dir, "job", 1));
          written = storage->Write(MakeCheckpoint(3));
        }
        if (faulty.faults_fired() == 0) {
          FLOE_ASSERT_OK(written);
          break;
        }
        ++crashes;
        bool renamed = fs::exists(temp.path() / "job" / "chk-3" / "_checkpoint");
        if (!renamed) {
          EXPECT_FALSE(written.has_value()) << what;
        }

        FLOE_ASSERT_OK_AND_ASSIGN(auto restarted, CheckpointStorage::Open(*base, dir, "job", 1));
        FLOE_ASSERT_OK_AND_ASSIGN(auto latest, restarted->LoadLatest());
        ASSERT_TRUE(latest.has_value()) << what;
        ExpectSameContent(*latest, MakeCheckpoint(renamed ? 3 : 2));
        bool before_rename = op == FileOp::kCreateDirectories || op == FileOp::kCreate ||
                             op == FileOp::kWrite || op == FileOp::kSync || op == FileOp::kClose ||
                             op == FileOp::kRename;
        if (before_rename) {
          EXPECT_FALSE(renamed) << what;
        }
        EXPECT_TRUE(restarted->skipped().empty()) << what;

        FLOE_ASSERT_OK_AND_ASSIGN(int64_t next, restarted->NextCheckpointId());
        EXPECT_GE(next, 3) << what;
        if (fs::exists(temp.path() / "job" / "chk-3")) {
          EXPECT_EQ(next, 4) << what;
        }
        FLOE_ASSERT_OK(restarted->Write(MakeCheckpoint(next)));
        FLOE_ASSERT_OK_AND_ASSIGN(auto after, restarted->LoadLatest());
        ASSERT_TRUE(after.has_value());
        EXPECT_EQ(after->checkpoint_id, next) << what;
      }
    }
  }
  EXPECT_GT(crashes, 15);
}

}  // namespace
}  // namespace floe::stream
