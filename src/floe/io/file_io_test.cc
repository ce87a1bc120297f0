// Behaviour every FileIO must share, run against the local filesystem (plain paths, file: URIs, and
// the link()+unlink() rename fallback), the in-memory implementation, and S3 (a moto server on
// loopback; skipped where moto is missing). Where an object store cannot behave like a file
// system (folders vanish with their last file, an open reader does not outlive a delete, a
// dropped writer leaves nothing), the test says so and checks what S3 does instead.

#include "floe/io/file_io.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "floe/io/local_file_io.h"
#include "floe/io/location.h"
#include "floe/io/memory_file_io.h"
#include "floe/io/s3/s3_file_io.h"
#include "floe/io/s3/s3_test_support.h"
#include "floe/testing/testing.h"

namespace floe::io {
namespace {

enum class Backend { kLocal, kLocalFileUri, kLocalLinkFallback, kMemory, kS3 };

std::string BackendName(const ::testing::TestParamInfo<Backend>& info) {
  switch (info.param) {
    case Backend::kLocal:
      return "Local";
    case Backend::kLocalFileUri:
      return "LocalFileUri";
    case Backend::kLocalLinkFallback:
      return "LocalLinkFallback";
    case Backend::kMemory:
      return "Memory";
    case Backend::kS3:
      return "S3";
  }
  return "Unknown";
}

class FileIOTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    switch (GetParam()) {
      case Backend::kLocal:
        io_ = std::make_shared<LocalFileIO>();
        root_ = temp_.path().string();
        break;
      case Backend::kLocalFileUri:
        io_ = std::make_shared<LocalFileIO>();
        root_ = "file://" + temp_.path().string();
        break;
      case Backend::kLocalLinkFallback:
        io_ = std::make_shared<LocalFileIO>(LocalFileIO::Options{.use_renameat2 = false});
        root_ = temp_.path().string();
        break;
      case Backend::kMemory:
        io_ = std::make_shared<MemoryFileIO>();
        root_ = "/warehouse";
        ASSERT_TRUE(io_->CreateDirectories(root_).has_value());
        break;
      case Backend::kS3: {
        FLOE_REQUIRE_S3_SERVER();
        auto s3 = std::make_shared<S3FileIO>(TestS3Options());
        FLOE_ASSERT_OK_AND_ASSIGN(std::string bucket, NewTestBucket(s3->client(), "contract"));
        io_ = s3;
        root_ = "s3://" + bucket + "/warehouse";
        object_store_ = true;
        break;
      }
    }
  }

  std::string At(std::string_view name) const { return JoinLocation(root_, name); }

  std::string Read(std::string_view name) {
    auto content = io_->ReadFile(At(name));
    EXPECT_TRUE(content.has_value()) << content.error().ToString();
    return content.value_or("");
  }

  std::vector<std::string> Names(std::string_view folder) {
    std::vector<std::string> names;
    auto entries = io_->List(folder);
    EXPECT_TRUE(entries.has_value()) << entries.error().ToString();
    if (entries) {
      for (const FileEntry& entry : *entries) names.push_back(entry.name);
    }
    return names;
  }

  floe::testing::TempDir temp_;
  std::shared_ptr<FileIO> io_;
  std::string root_;
  bool object_store_ = false;
};

TEST_P(FileIOTest, WriteThenReadBack) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto output, io_->NewOutputFile(At("a.bin")));
  EXPECT_EQ(output->location(), At("a.bin"));
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, output->Create());
  EXPECT_EQ(writer->position(), 0);
  FLOE_ASSERT_OK(writer->Write("hello, "));
  EXPECT_EQ(writer->position(), 7);
  FLOE_ASSERT_OK(writer->Write(std::string_view("")));
  std::string binary("\0\1\2\xff", 4);
  FLOE_ASSERT_OK(writer->Write(binary));
  EXPECT_EQ(writer->position(), 11);
  FLOE_ASSERT_OK(writer->Sync());
  FLOE_ASSERT_OK(writer->Close());

  FLOE_ASSERT_OK_AND_ASSIGN(auto input, io_->NewInputFile(At("a.bin")));
  EXPECT_EQ(input->location(), At("a.bin"));
  FLOE_ASSERT_OK_AND_ASSIGN(int64_t size, input->Size());
  EXPECT_EQ(size, 11);
  std::string middle(5, '?');
  FLOE_ASSERT_OK_AND_ASSIGN(size_t n, input->ReadAt(5, std::as_writable_bytes(std::span(middle))));
  EXPECT_EQ(n, 5u);
  EXPECT_EQ(middle, std::string(", \0\1\2", 5));
  FLOE_ASSERT_OK_AND_ASSIGN(std::string all, input->ReadAll());
  EXPECT_EQ(all, "hello, " + binary);
}

TEST_P(FileIOTest, ReadPastEndNamesFileAndOffset) {
  FLOE_ASSERT_OK(io_->WriteFile(At("short"), "0123456789", false));
  FLOE_ASSERT_OK_AND_ASSIGN(auto input, io_->NewInputFile(At("short")));
  std::string buffer(4, '\0');
  auto past = input->ReadAt(8, std::as_writable_bytes(std::span(buffer)));
  ASSERT_FALSE(past.has_value());
  EXPECT_EQ(past.error().kind(), ErrorKind::kCorruptData);
  EXPECT_NE(past.error().message().find(At("short")), std::string::npos) << past.error().message();
  EXPECT_NE(past.error().message().find("offset 8"), std::string::npos) << past.error().message();
  EXPECT_NE(past.error().message().find("ends at 10"), std::string::npos) << past.error().message();

  auto beyond = input->ReadAt(100, std::as_writable_bytes(std::span(buffer)));
  ASSERT_FALSE(beyond.has_value());
  EXPECT_EQ(beyond.error().kind(), ErrorKind::kCorruptData);

  auto negative = input->ReadAt(-1, std::as_writable_bytes(std::span(buffer)));
  ASSERT_FALSE(negative.has_value());
  EXPECT_EQ(negative.error().kind(), ErrorKind::kInvalidArgument);

  // Reading nothing at the very end is fine; so is the last byte.
  FLOE_ASSERT_OK_AND_ASSIGN(size_t none, input->ReadAt(10, {}));
  EXPECT_EQ(none, 0u);
  std::string last(1, '\0');
  FLOE_ASSERT_OK(input->ReadAt(9, std::as_writable_bytes(std::span(last))));
  EXPECT_EQ(last, "9");
}

TEST_P(FileIOTest, EmptyFile) {
  FLOE_ASSERT_OK(io_->WriteFile(At("empty"), "", false));
  FLOE_ASSERT_OK_AND_ASSIGN(auto input, io_->NewInputFile(At("empty")));
  FLOE_ASSERT_OK_AND_ASSIGN(int64_t size, input->Size());
  EXPECT_EQ(size, 0);
  FLOE_ASSERT_OK_AND_ASSIGN(std::string all, input->ReadAll());
  EXPECT_EQ(all, "");
}

TEST_P(FileIOTest, CreateFailsWhenPresentAndOverwriteTruncates) {
  FLOE_ASSERT_OK(io_->WriteFile(At("f"), "first version", false));
  FLOE_ASSERT_OK_AND_ASSIGN(auto output, io_->NewOutputFile(At("f")));
  auto again = output->Create();
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_NE(again.error().message().find(FileName(At("f"))), std::string::npos);
  EXPECT_EQ(Read("f"), "first version");

  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, output->CreateOrOverwrite());
  FLOE_ASSERT_OK(writer->Write("v2"));
  FLOE_ASSERT_OK(writer->Close());
  EXPECT_EQ(Read("f"), "v2");

  FLOE_ASSERT_OK(io_->WriteFile(At("f"), "v3", true));
  EXPECT_EQ(Read("f"), "v3");
  auto no_overwrite = io_->WriteFile(At("f"), "v4", false);
  ASSERT_FALSE(no_overwrite.has_value());
  EXPECT_EQ(no_overwrite.error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(Read("f"), "v3");
}

TEST_P(FileIOTest, CreateMakesMissingFolders) {
  FLOE_ASSERT_OK(io_->WriteFile(At("data/p=1/q=2/part-0.parquet"), "rows", false));
  EXPECT_EQ(Read("data/p=1/q=2/part-0.parquet"), "rows");
  FLOE_ASSERT_OK_AND_ASSIGN(FileEntry info, io_->GetInfo(At("data/p=1")));
  EXPECT_TRUE(info.is_dir);
  EXPECT_EQ(info.name, "p=1");
}

TEST_P(FileIOTest, CreateUnderAFileFails) {
  FLOE_ASSERT_OK(io_->WriteFile(At("plain"), "x", false));
  if (!object_store_) {
    // An object store keeps "plain" and "plain/child" as two keys; only folders are checked.
    auto under = io_->WriteFile(At("plain/child"), "y", false);
    ASSERT_FALSE(under.has_value());
    EXPECT_EQ(under.error().kind(), ErrorKind::kIO);
  }
  auto folder = io_->CreateDirectories(At("plain/sub"));
  ASSERT_FALSE(folder.has_value());
  EXPECT_EQ(folder.error().kind(), ErrorKind::kIO);
  auto over_folder = io_->CreateDirectories(At("plain"));
  ASSERT_FALSE(over_folder.has_value());
  EXPECT_EQ(over_folder.error().kind(), ErrorKind::kIO);
}

TEST_P(FileIOTest, OpenMissingOrFolder) {
  auto missing = io_->NewInputFile(At("nope.avro"));
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
  EXPECT_NE(missing.error().message().find("nope.avro"), std::string::npos);
  EXPECT_EQ(io_->ReadFile(At("nope.avro")).error().kind(), ErrorKind::kNotFound);

  FLOE_ASSERT_OK(io_->CreateDirectories(At("folder")));
  auto folder = io_->NewInputFile(At("folder"));
  ASSERT_FALSE(folder.has_value());
  EXPECT_EQ(folder.error().kind(), ErrorKind::kIO);
  if (!object_store_) {
    // In an object store "folder" (a file) and "folder/" (a folder) are two keys.
    FLOE_ASSERT_OK_AND_ASSIGN(auto output, io_->NewOutputFile(At("folder")));
    auto create_over_folder = output->CreateOrOverwrite();
    ASSERT_FALSE(create_over_folder.has_value());
    EXPECT_NE(create_over_folder.error().kind(), ErrorKind::kNotFound);
  }
}

TEST_P(FileIOTest, WriterAfterClose) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto output, io_->NewOutputFile(At("closed")));
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, output->Create());
  FLOE_ASSERT_OK(writer->Write("abc"));
  FLOE_ASSERT_OK(writer->Close());
  FLOE_ASSERT_OK(writer->Close());
  auto write = writer->Write("more");
  ASSERT_FALSE(write.has_value());
  EXPECT_EQ(write.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(writer->Sync().error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(writer->position(), 3);
  EXPECT_EQ(Read("closed"), "abc");
}

TEST_P(FileIOTest, AbandonedWriterLeavesAPrefix) {
  {
    FLOE_ASSERT_OK_AND_ASSIGN(auto output, io_->NewOutputFile(At("dropped")));
    FLOE_ASSERT_OK_AND_ASSIGN(auto writer, output->Create());
    FLOE_ASSERT_OK(writer->Write("synced;"));
    FLOE_ASSERT_OK(writer->Sync());
    FLOE_ASSERT_OK(writer->Write("not synced"));
  }
  if (object_store_) {
    // Nothing of an object is visible before its writer closes: an abandoned one leaves nothing.
    EXPECT_FALSE(io_->Exists(At("dropped")).value());
    return;
  }
  std::string content = Read("dropped");
  EXPECT_TRUE(content.starts_with("synced;")) << content;
  EXPECT_TRUE(std::string_view("synced;not synced").starts_with(content)) << content;
}

TEST_P(FileIOTest, SmallAndLargeWritesKeepTheirOrder) {
  // Chunks below, around and above any write buffer, with every byte value.
  std::string expected;
  FLOE_ASSERT_OK_AND_ASSIGN(auto output, io_->NewOutputFile(At("mixed")));
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, output->Create());
  const std::vector<size_t> sizes = {1, 7, 4096, 65535, 1, 65536, 3, 200000, 65537, 12, 0, 131072};
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::string chunk(sizes[i], '\0');
    for (size_t j = 0; j < chunk.size(); ++j) chunk[j] = static_cast<char>((i * 31 + j) % 256);
    FLOE_ASSERT_OK(writer->Write(chunk));
    expected += chunk;
    ASSERT_EQ(writer->position(), static_cast<int64_t>(expected.size()));
  }
  FLOE_ASSERT_OK(writer->Close());
  std::string content = Read("mixed");
  ASSERT_EQ(content.size(), expected.size());
  EXPECT_TRUE(content == expected);
}

TEST_P(FileIOTest, GetInfoAndExists) {
  FLOE_ASSERT_OK(io_->WriteFile(At("meta/v1.metadata.json"), "{}", false));
  FLOE_ASSERT_OK_AND_ASSIGN(FileEntry file, io_->GetInfo(At("meta/v1.metadata.json")));
  EXPECT_EQ(file.name, "v1.metadata.json");
  EXPECT_EQ(file.location, At("meta/v1.metadata.json"));
  EXPECT_EQ(file.size, 2);
  EXPECT_FALSE(file.is_dir);
  FLOE_ASSERT_OK_AND_ASSIGN(FileEntry folder, io_->GetInfo(At("meta")));
  EXPECT_TRUE(folder.is_dir);
  EXPECT_EQ(folder.size, 0);
  EXPECT_EQ(io_->GetInfo(At("meta/v2.metadata.json")).error().kind(), ErrorKind::kNotFound);

  FLOE_ASSERT_OK_AND_ASSIGN(bool file_exists, io_->Exists(At("meta/v1.metadata.json")));
  EXPECT_TRUE(file_exists);
  FLOE_ASSERT_OK_AND_ASSIGN(bool folder_exists, io_->Exists(At("meta")));
  EXPECT_TRUE(folder_exists);
  FLOE_ASSERT_OK_AND_ASSIGN(bool missing_exists, io_->Exists(At("meta/v2.metadata.json")));
  EXPECT_FALSE(missing_exists);
}

TEST_P(FileIOTest, Delete) {
  FLOE_ASSERT_OK(io_->WriteFile(At("d/file"), "x", false));
  auto not_empty = io_->Delete(At("d"));
  ASSERT_FALSE(not_empty.has_value());
  EXPECT_EQ(not_empty.error().kind(), ErrorKind::kIO);
  FLOE_ASSERT_OK(io_->Delete(At("d/file")));
  EXPECT_FALSE(io_->Exists(At("d/file")).value());
  // An object store's folder made by a file alone goes with its last file.
  if (object_store_) FLOE_ASSERT_OK(io_->CreateDirectories(At("d")));
  FLOE_ASSERT_OK(io_->Delete(At("d")));
  EXPECT_FALSE(io_->Exists(At("d")).value());
  auto missing = io_->Delete(At("d/file"));
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
}

TEST_P(FileIOTest, OpenReaderSurvivesDelete) {
  if (object_store_) GTEST_SKIP() << "an object store serves no reads of a deleted object";
  FLOE_ASSERT_OK(io_->WriteFile(At("snap-1.avro"), "manifest list", false));
  FLOE_ASSERT_OK_AND_ASSIGN(auto input, io_->NewInputFile(At("snap-1.avro")));
  FLOE_ASSERT_OK(io_->Delete(At("snap-1.avro")));
  FLOE_ASSERT_OK_AND_ASSIGN(std::string content, input->ReadAll());
  EXPECT_EQ(content, "manifest list");
}

TEST_P(FileIOTest, ListIsSortedWithSizes) {
  FLOE_ASSERT_OK(io_->WriteFile(At("t/metadata/v2.metadata.json"), "12345", false));
  FLOE_ASSERT_OK(io_->WriteFile(At("t/metadata/v1.metadata.json"), "123", false));
  FLOE_ASSERT_OK(io_->WriteFile(At("t/data/a.parquet"), "", false));
  FLOE_ASSERT_OK(io_->WriteFile(At("t/version-hint.text"), "2", false));
  FLOE_ASSERT_OK(io_->CreateDirectories(At("t/empty")));

  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<FileEntry> entries, io_->List(At("t")));
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].name, "data");
  EXPECT_TRUE(entries[0].is_dir);
  EXPECT_EQ(entries[1].name, "empty");
  EXPECT_TRUE(entries[1].is_dir);
  EXPECT_EQ(entries[2].name, "metadata");
  EXPECT_EQ(entries[2].location, At("t/metadata"));
  EXPECT_EQ(entries[3].name, "version-hint.text");
  EXPECT_FALSE(entries[3].is_dir);
  EXPECT_EQ(entries[3].size, 1);

  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<FileEntry> metadata, io_->List(At("t/metadata")));
  ASSERT_EQ(metadata.size(), 2u);
  EXPECT_EQ(metadata[0].name, "v1.metadata.json");
  EXPECT_EQ(metadata[0].size, 3);
  EXPECT_EQ(metadata[1].name, "v2.metadata.json");
  EXPECT_EQ(metadata[1].size, 5);
  EXPECT_TRUE(Names(At("t/empty")).empty());
  // A trailing slash names the same folder.
  EXPECT_EQ(Names(At("t/metadata/")),
            (std::vector<std::string>{"v1.metadata.json", "v2.metadata.json"}));

  EXPECT_EQ(io_->List(At("t/missing")).error().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(io_->List(At("t/version-hint.text")).error().kind(), ErrorKind::kIO);
}

TEST_P(FileIOTest, ListRecursiveAndDeleteRecursive) {
  FLOE_ASSERT_OK(io_->WriteFile(At("t/data/p=1/a"), "1", false));
  FLOE_ASSERT_OK(io_->WriteFile(At("t/data/p=1/b"), "22", false));
  FLOE_ASSERT_OK(io_->WriteFile(At("t/data/p=2/c"), "333", false));
  FLOE_ASSERT_OK(io_->WriteFile(At("t/metadata/v1.metadata.json"), "{}", false));
  FLOE_ASSERT_OK(io_->WriteFile(At("other"), "keep", false));

  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<FileEntry> all, io_->ListRecursive(At("t")));
  std::vector<std::string> names;
  for (const FileEntry& entry : all) names.push_back(entry.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"data", "data/p=1", "data/p=1/a", "data/p=1/b", "data/p=2",
                                      "data/p=2/c", "metadata", "metadata/v1.metadata.json"}));
  EXPECT_EQ(all[5].size, 3);
  EXPECT_EQ(all[5].location, At("t/data/p=2/c"));

  FLOE_ASSERT_OK(io_->DeleteRecursive(At("t")));
  EXPECT_FALSE(io_->Exists(At("t")).value());
  EXPECT_EQ(Read("other"), "keep");
  FLOE_ASSERT_OK(io_->DeleteRecursive(At("other")));
  EXPECT_FALSE(io_->Exists(At("other")).value());
  EXPECT_EQ(io_->DeleteRecursive(At("t")).error().kind(), ErrorKind::kNotFound);
}

TEST_P(FileIOTest, CreateDirectoriesIsIdempotent) {
  FLOE_ASSERT_OK(io_->CreateDirectories(At("x/y/z")));
  FLOE_ASSERT_OK(io_->CreateDirectories(At("x/y/z")));
  FLOE_ASSERT_OK(io_->CreateDirectories(At("x/y")));
  EXPECT_EQ(Names(At("x")), std::vector<std::string>{"y"});
  EXPECT_EQ(Names(At("x/y")), std::vector<std::string>{"z"});
  FLOE_ASSERT_OK(io_->SyncDirectory(At("x/y/z")));
  EXPECT_EQ(io_->SyncDirectory(At("x/missing")).error().kind(), ErrorKind::kNotFound);
}

TEST_P(FileIOTest, RenameReplaces) {
  FLOE_ASSERT_OK(io_->WriteFile(At("from"), "new", false));
  FLOE_ASSERT_OK(io_->WriteFile(At("to"), "old", false));
  FLOE_ASSERT_OK(io_->Rename(At("from"), At("to")));
  EXPECT_EQ(Read("to"), "new");
  EXPECT_FALSE(io_->Exists(At("from")).value());
  EXPECT_EQ(io_->Rename(At("from"), At("to")).error().kind(), ErrorKind::kNotFound);
}

TEST_P(FileIOTest, RenameNoReplace) {
  FLOE_ASSERT_OK(io_->WriteFile(At("tmp-1"), "first", false));
  FLOE_ASSERT_OK(io_->RenameNoReplace(At("tmp-1"), At("v1.metadata.json")));
  EXPECT_EQ(Read("v1.metadata.json"), "first");
  EXPECT_FALSE(io_->Exists(At("tmp-1")).value());

  FLOE_ASSERT_OK(io_->WriteFile(At("tmp-2"), "second", false));
  auto taken = io_->RenameNoReplace(At("tmp-2"), At("v1.metadata.json"));
  ASSERT_FALSE(taken.has_value());
  EXPECT_EQ(taken.error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_NE(taken.error().message().find("v1.metadata.json"), std::string::npos);
  // Neither side changed.
  EXPECT_EQ(Read("v1.metadata.json"), "first");
  EXPECT_EQ(Read("tmp-2"), "second");

  auto missing = io_->RenameNoReplace(At("tmp-3"), At("v2.metadata.json"));
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
  EXPECT_FALSE(io_->Exists(At("v2.metadata.json")).value());

  // Into another existing folder.
  FLOE_ASSERT_OK(io_->CreateDirectories(At("sub")));
  FLOE_ASSERT_OK(io_->RenameNoReplace(At("tmp-2"), At("sub/moved")));
  EXPECT_EQ(Read("sub/moved"), "second");
}

TEST_P(FileIOTest, ConcurrentRenameNoReplaceHasExactlyOneWinner) {
  constexpr int kThreads = 8;
  constexpr int kRounds = 20;
  for (int round = 0; round < kRounds; ++round) {
    std::string target = At(fmt::format("v{}.metadata.json", round));
    for (int t = 0; t < kThreads; ++t) {
      FLOE_ASSERT_OK(io_->WriteFile(At(fmt::format("tmp-{}-{}", round, t)),
                                    fmt::format("writer {}", t), false));
    }
    std::atomic<int> winners{0};
    std::atomic<int> losers{0};
    std::atomic<int> others{0};
    std::atomic<int> winner{-1};
    std::vector<std::thread> threads;
    std::atomic<bool> go{false};
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        while (!go.load()) std::this_thread::yield();
        auto status = io_->RenameNoReplace(At(fmt::format("tmp-{}-{}", round, t)), target);
        if (status) {
          ++winners;
          winner = t;
        } else if (status.error().kind() == ErrorKind::kAlreadyExists) {
          ++losers;
        } else {
          ++others;
        }
      });
    }
    go = true;
    for (std::thread& thread : threads) thread.join();
    ASSERT_EQ(winners.load(), 1) << "round " << round;
    ASSERT_EQ(losers.load(), kThreads - 1);
    ASSERT_EQ(others.load(), 0);
    // The target holds the winner's bytes; every loser still has its own temporary file.
    FLOE_ASSERT_OK_AND_ASSIGN(std::string content, io_->ReadFile(target));
    EXPECT_EQ(content, fmt::format("writer {}", winner.load()));
    for (int t = 0; t < kThreads; ++t) {
      EXPECT_EQ(io_->Exists(At(fmt::format("tmp-{}-{}", round, t))).value(), t != winner.load());
    }
  }
}

TEST_P(FileIOTest, WriteFileAtomically) {
  FLOE_ASSERT_OK(io_->CreateDirectories(At("metadata")));
  FLOE_ASSERT_OK(io_->WriteFileAtomically(At("metadata/version-hint.text"), "1", false));
  EXPECT_EQ(Read("metadata/version-hint.text"), "1");

  auto exists = io_->WriteFileAtomically(At("metadata/version-hint.text"), "2", false);
  ASSERT_FALSE(exists.has_value());
  EXPECT_EQ(exists.error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_NE(exists.error().message().find("version-hint.text"), std::string::npos);
  EXPECT_EQ(Read("metadata/version-hint.text"), "1");

  FLOE_ASSERT_OK(io_->WriteFileAtomically(At("metadata/version-hint.text"), "3", true));
  EXPECT_EQ(Read("metadata/version-hint.text"), "3");
  // No temporary file is left behind, whether the write won or lost.
  EXPECT_EQ(Names(At("metadata")), std::vector<std::string>{"version-hint.text"});

  // Bytes with zeros, and into a folder that does not exist yet.
  std::string binary("a\0b\0c", 5);
  FLOE_ASSERT_OK(io_->WriteFileAtomically(At("new/folder/blob"), binary, false));
  EXPECT_EQ(Read("new/folder/blob"), binary);
}

TEST_P(FileIOTest, ReplaceFileUnsynced) {
  FLOE_ASSERT_OK(io_->CreateDirectories(At("metadata")));
  FLOE_ASSERT_OK(io_->ReplaceFileUnsynced(At("metadata/version-hint.text"), "1"));
  EXPECT_EQ(Read("metadata/version-hint.text"), "1");
  FLOE_ASSERT_OK(io_->ReplaceFileUnsynced(At("metadata/version-hint.text"), "2"));
  EXPECT_EQ(Read("metadata/version-hint.text"), "2");
  EXPECT_EQ(Names(At("metadata")), std::vector<std::string>{"version-hint.text"});
}

TEST_P(FileIOTest, ConcurrentAtomicWritesHaveExactlyOneWinner) {
  constexpr int kThreads = 6;
  std::string target = At("v7.metadata.json");
  std::atomic<int> winners{0};
  std::atomic<int> losers{0};
  std::atomic<int> winner{-1};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      auto status = io_->WriteFileAtomically(target, fmt::format("commit by {}", t), false);
      if (status) {
        ++winners;
        winner = t;
      } else if (status.error().kind() == ErrorKind::kAlreadyExists) {
        ++losers;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(winners.load(), 1);
  EXPECT_EQ(losers.load(), kThreads - 1);
  EXPECT_EQ(Read("v7.metadata.json"), fmt::format("commit by {}", winner.load()));
  EXPECT_EQ(Names(root_), std::vector<std::string>{"v7.metadata.json"});
}

TEST_P(FileIOTest, ConcurrentReadsOfOneFile) {
  std::string content;
  for (int i = 0; i < 4096; ++i) content += static_cast<char>(i * 7 % 251);
  FLOE_ASSERT_OK(io_->WriteFile(At("shared"), content, false));
  FLOE_ASSERT_OK_AND_ASSIGN(auto input, io_->NewInputFile(At("shared")));
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        int64_t offset = (t * 977 + i * 131) % 4000;
        std::string buffer(96, '\0');
        auto read = input->ReadAt(offset, std::as_writable_bytes(std::span(buffer)));
        if (!read || buffer != content.substr(static_cast<size_t>(offset), 96)) ++mismatches;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0);
}

// Listing says when each file was last written (what remove_orphan_files' older_than compares);
// the memory backend keeps no times and says 0. S3's LastModified has whole seconds.
TEST_P(FileIOTest, ListingGivesModificationTimes) {
  auto now_ms = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  const int64_t before = now_ms();
  FLOE_ASSERT_OK(io_->WriteFile(At("timed"), "bytes", false));
  const int64_t after = now_ms();
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<FileEntry> entries, io_->List(root_));
  auto it = std::ranges::find(entries, std::string("timed"), &FileEntry::name);
  ASSERT_NE(it, entries.end());
  if (GetParam() == Backend::kMemory) {
    EXPECT_EQ(it->modified_ms, 0);
    return;
  }
  EXPECT_GE(it->modified_ms, before - 1000);
  EXPECT_LE(it->modified_ms, after + 1000);
}

INSTANTIATE_TEST_SUITE_P(Backends, FileIOTest,
                         ::testing::Values(Backend::kLocal, Backend::kLocalFileUri,
                                           Backend::kLocalLinkFallback, Backend::kMemory,
                                           Backend::kS3),
                         BackendName);

}  // namespace
}  // namespace floe::io
