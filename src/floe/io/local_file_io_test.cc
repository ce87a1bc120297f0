// What only the local filesystem shows: bytes as other programs see them, errno texts, URIs, the
// rename fallback's link counts. Behaviour shared with other FileIOs is in file_io_test.cc.

#include "floe/io/local_file_io.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "floe/testing/testing.h"

namespace floe::io {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> DirNames(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(LocalFileIOTest, ReadsAFileWrittenByAnotherEngine) {
  // alltypes_plain.parquet is 1851 bytes (MANIFEST.txt) and a Parquet file starts and ends with
  // PAR1.
  fs::path path = floe::testing::TestDataDir() / "parquet-testing/data/alltypes_plain.parquet";
  LocalFileIO io;
  FLOE_ASSERT_OK_AND_ASSIGN(auto input, io.NewInputFile(path.string()));
  FLOE_ASSERT_OK_AND_ASSIGN(int64_t size, input->Size());
  EXPECT_EQ(size, 1851);
  std::string head(4, '\0');
  std::string tail(4, '\0');
  FLOE_ASSERT_OK(input->ReadAt(0, std::as_writable_bytes(std::span(head))));
  FLOE_ASSERT_OK(input->ReadAt(size - 4, std::as_writable_bytes(std::span(tail))));
  EXPECT_EQ(head, "PAR1");
  EXPECT_EQ(tail, "PAR1");
  FLOE_ASSERT_OK_AND_ASSIGN(std::string all, input->ReadAll());
  EXPECT_EQ(all, floe::testing::ReadFileOrDie(path));
}

TEST(LocalFileIOTest, WrittenBytesAreOnDisk) {
  floe::testing::TempDir temp;
  LocalFileIO io;
  std::string bytes("PAR1\0\xff tail", 11);
  FLOE_ASSERT_OK(io.WriteFile((temp.path() / "w/x.bin").string(), bytes, false));
  EXPECT_EQ(fs::file_size(temp.path() / "w/x.bin"), 11u);
  EXPECT_EQ(floe::testing::ReadFileOrDie(temp.path() / "w/x.bin"), bytes);

  // A file another program writes is read back the same.
  {
    std::ofstream out(temp.path() / "outside.txt", std::ios::binary);
    out << "written elsewhere";
  }
  FLOE_ASSERT_OK_AND_ASSIGN(std::string read,
                            io.ReadFile("file:" + (temp.path() / "outside.txt").string()));
  EXPECT_EQ(read, "written elsewhere");
}

TEST(LocalFileIOTest, UriFormsNameTheSameFile) {
  floe::testing::TempDir temp;
  LocalFileIO io;
  std::string path = (temp.path() / "m.json").string();
  FLOE_ASSERT_OK(io.WriteFile("file://" + path, "{}", false));
  for (const std::string& location : {path, "file:" + path, "file://localhost" + path}) {
    FLOE_ASSERT_OK_AND_ASSIGN(std::string content, io.ReadFile(location));
    EXPECT_EQ(content, "{}") << location;
  }
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<FileEntry> entries,
                            io.List("file:" + temp.path().string()));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].location, "file:" + path);
}

TEST(LocalFileIOTest, OtherSchemesAreUnsupported) {
  LocalFileIO io;
  auto input = io.NewInputFile("s3://bucket/t/m.json");
  ASSERT_FALSE(input.has_value());
  EXPECT_EQ(input.error().kind(), ErrorKind::kUnsupported);
  EXPECT_EQ(io.NewOutputFile("gs://bucket/x").error().kind(), ErrorKind::kUnsupported);
  EXPECT_EQ(io.Exists("file://remote-host/x").error().kind(), ErrorKind::kUnsupported);
  EXPECT_EQ(io.GetInfo("").error().kind(), ErrorKind::kInvalidArgument);
}

TEST(LocalFileIOTest, ErrorsCarryPathAndErrnoText) {
  floe::testing::TempDir temp;
  LocalFileIO io;
  std::string missing = (temp.path() / "missing.avro").string();
  auto opened = io.NewInputFile(missing);
  ASSERT_FALSE(opened.has_value());
  EXPECT_EQ(opened.error().kind(), ErrorKind::kNotFound);
  EXPECT_NE(opened.error().message().find(missing), std::string::npos);
  EXPECT_NE(opened.error().message().find("No such file or directory"), std::string::npos)
      << opened.error().message();

  FLOE_ASSERT_OK(io.WriteFile((temp.path() / "f").string(), "x", false));
  auto exists = io.NewOutputFile((temp.path() / "f").string()).value()->Create();
  ASSERT_FALSE(exists.has_value());
  EXPECT_NE(exists.error().message().find("File exists"), std::string::npos)
      << exists.error().message();
}

TEST(LocalFileIOTest, FullDeviceIsIOError) {
  // /dev/full accepts opens and refuses every write with ENOSPC, even for root.
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  LocalFileIO io;
  FLOE_ASSERT_OK_AND_ASSIGN(auto output, io.NewOutputFile("/dev/full"));
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, output->CreateOrOverwrite());
  // A small write is buffered; the device's refusal shows at the sync and sticks.
  FLOE_ASSERT_OK(writer->Write("bytes"));
  EXPECT_EQ(writer->position(), 5);
  auto synced = writer->Sync();
  ASSERT_FALSE(synced.has_value());
  EXPECT_EQ(synced.error().kind(), ErrorKind::kIO);
  EXPECT_NE(synced.error().message().find("/dev/full"), std::string::npos);
  EXPECT_NE(synced.error().message().find("No space left on device"), std::string::npos)
      << synced.error().message();
  EXPECT_EQ(writer->Write("more").error().kind(), ErrorKind::kIO);
  EXPECT_EQ(writer->Close().error().kind(), ErrorKind::kIO);

  // A write larger than the buffer fails at once.
  FLOE_ASSERT_OK_AND_ASSIGN(auto big_writer, output->CreateOrOverwrite());
  auto big = big_writer->Write(std::string(1 << 20, 'x'));
  ASSERT_FALSE(big.has_value());
  EXPECT_NE(big.error().message().find("at offset 0"), std::string::npos) << big.error().message();
  EXPECT_EQ(big_writer->Close().error().kind(), ErrorKind::kIO);
}

TEST(LocalFileIOTest, LinkFallbackLeavesOneName) {
  floe::testing::TempDir temp;
  LocalFileIO io(LocalFileIO::Options{.use_renameat2 = false});
  std::string from = (temp.path() / "tmp").string();
  std::string to = (temp.path() / "v1.metadata.json").string();
  FLOE_ASSERT_OK(io.WriteFile(from, "metadata", false));
  FLOE_ASSERT_OK(io.RenameNoReplace(from, to));
  EXPECT_FALSE(fs::exists(from));
  struct stat st;
  ASSERT_EQ(::stat(to.c_str(), &st), 0);
  EXPECT_EQ(st.st_nlink, 1u);
  EXPECT_EQ(floe::testing::ReadFileOrDie(to), "metadata");
}

TEST(LocalFileIOTest, RenameNoReplaceRefusesAnEmptyFolderTarget) {
  floe::testing::TempDir temp;
  for (bool use_renameat2 : {true, false}) {
    LocalFileIO io(LocalFileIO::Options{.use_renameat2 = use_renameat2});
    std::string from = (temp.path() / "tmp").string();
    FLOE_ASSERT_OK(io.WriteFile(from, "x", true));
    fs::create_directories(temp.path() / "target");
    auto renamed = io.RenameNoReplace(from, (temp.path() / "target").string());
    ASSERT_FALSE(renamed.has_value());
    EXPECT_EQ(renamed.error().kind(), ErrorKind::kAlreadyExists);
    EXPECT_TRUE(fs::is_directory(temp.path() / "target"));
    EXPECT_TRUE(fs::exists(from));
  }
}

TEST(LocalFileIOTest, RenameOntoNonEmptyFolderFails) {
  floe::testing::TempDir temp;
  LocalFileIO io;
  FLOE_ASSERT_OK(io.CreateDirectories((temp.path() / "a").string()));
  FLOE_ASSERT_OK(io.WriteFile((temp.path() / "b/file").string(), "x", false));
  auto renamed = io.Rename((temp.path() / "a").string(), (temp.path() / "b").string());
  ASSERT_FALSE(renamed.has_value());
  EXPECT_EQ(renamed.error().kind(), ErrorKind::kIO);
  // A folder moves with its content.
  FLOE_ASSERT_OK(io.Rename((temp.path() / "b").string(), (temp.path() / "c").string()));
  EXPECT_EQ(floe::testing::ReadFileOrDie(temp.path() / "c/file"), "x");
}

TEST(LocalFileIOTest, AtomicWriteLeavesOnlyTheTarget) {
  floe::testing::TempDir temp;
  LocalFileIO io;
  std::string target = (temp.path() / "version-hint.text").string();
  FLOE_ASSERT_OK(io.WriteFileAtomically(target, "5", false));
  EXPECT_FALSE(io.WriteFileAtomically(target, "6", false).has_value());
  FLOE_ASSERT_OK(io.WriteFileAtomically(target, "7", true));
  EXPECT_EQ(DirNames(temp.path()), std::vector<std::string>{"version-hint.text"});
  EXPECT_EQ(floe::testing::ReadFileOrDie(target), "7");
}

TEST(LocalFileIOTest, OverwriteTruncatesForOpenReaders) {
  floe::testing::TempDir temp;
  LocalFileIO io;
  std::string path = (temp.path() / "f").string();
  FLOE_ASSERT_OK(io.WriteFile(path, "a long first version", false));
  FLOE_ASSERT_OK_AND_ASSIGN(auto input, io.NewInputFile(path));
  FLOE_ASSERT_OK(io.WriteFile(path, "v2", true));
  std::string buffer(10, '\0');
  auto read = input->ReadAt(0, std::as_writable_bytes(std::span(buffer)));
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().kind(), ErrorKind::kCorruptData);
  EXPECT_EQ(fs::file_size(path), 2u);
}

}  // namespace
}  // namespace floe::io
