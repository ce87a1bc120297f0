// S3FileIO beyond the FileIO contract (file_io_test.cc runs that on S3 too): multipart uploads,
// listing past a page, batch deletes, opens without a HEAD, conditional creates and the errors
// the store's answers become. Against a moto server on loopback; skipped without one.

#include "floe/io/s3/s3_file_io.h"

#include <gtest/gtest.h>

#include <atomic>
#include <sstream>
#include <thread>

#include "floe/io/resolving_file_io.h"
#include "floe/io/s3/s3_client.h"
#include "floe/io/s3/s3_test_support.h"
#include "floe/testing/testing.h"

namespace floe::io {
namespace {

class S3FileIOTest : public ::testing::Test {
 protected:
  void SetUp() override {
    FLOE_REQUIRE_S3_SERVER();
    S3Options options = TestS3Options();
    options.part_size = 5 << 20;
    options.multipart_threshold = 1.0;
    options.parts_in_flight = 2;
    io_ = std::make_shared<S3FileIO>(options);
    FLOE_ASSERT_OK_AND_ASSIGN(bucket_, NewTestBucket(io_->client(), "s3io"));
  }

  std::string At(std::string_view key) const { return fmt::format("s3://{}/{}", bucket_, key); }

  std::shared_ptr<S3FileIO> io_;
  std::string bucket_;
};

std::string Pattern(size_t size, int seed) {
  std::string out(size, '\0');
  uint64_t x = static_cast<uint64_t>(seed) * 0x9E3779B97F4A7C15ULL + 1;
  for (char& c : out) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = static_cast<char>(x);
  }
  return out;
}

TEST(S3LocationTest, ParsesBucketAndKey) {
  FLOE_ASSERT_OK_AND_ASSIGN(S3Path path, ParseS3Location("s3://bucket/wh//db/./t/m.json"));
  EXPECT_EQ(path.bucket, "bucket");
  EXPECT_EQ(path.key, "wh/db/t/m.json");
  FLOE_ASSERT_OK_AND_ASSIGN(S3Path root, ParseS3Location("s3a://b"));
  EXPECT_EQ(root.bucket, "b");
  EXPECT_EQ(root.key, "");
  FLOE_ASSERT_OK_AND_ASSIGN(S3Path folder, ParseS3Location("s3://b/a/"));
  EXPECT_EQ(folder.key, "a/");
  EXPECT_EQ(ParseS3Location("s3:///key").error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(ParseS3Location("/local/path").error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_TRUE(IsS3Location("S3://b/k"));
  EXPECT_FALSE(IsS3Location("hdfs://nn/k"));
}

TEST(ResolvingFileIOTest, OtherSchemesAreNotSupportedYet) {
  ResolvingFileIO io;
  auto hdfs = io.NewInputFile("hdfs://namenode:8020/warehouse/db/t/metadata/v1.metadata.json");
  ASSERT_FALSE(hdfs.has_value());
  EXPECT_EQ(hdfs.error().kind(), ErrorKind::kUnsupported);
  EXPECT_NE(hdfs.error().message().find("scheme 'hdfs'"), std::string::npos)
      << hdfs.error().message();
  EXPECT_NE(hdfs.error().message().find("not support yet"), std::string::npos)
      << hdfs.error().message();
  EXPECT_EQ(io.List("gs://bucket/wh").error().kind(), ErrorKind::kUnsupported);
  // Bad S3 settings surface at the first S3 use, naming the property.
  ResolvingFileIO bad(Properties{{"s3.multipart.part-size-bytes", "12"}});
  auto s3 = bad.GetInfo("s3://b/k");
  ASSERT_FALSE(s3.has_value());
  EXPECT_NE(s3.error().message().find("s3.multipart.part-size-bytes"), std::string::npos);
}

TEST_F(S3FileIOTest, LargeFileGoesUpInParallelParts) {
  // 2.5 parts, written in odd-sized pieces so that part boundaries fall inside writes.
  const std::string content = Pattern((5 << 20) * 2 + (5 << 19) + 17, 1);
  FLOE_ASSERT_OK_AND_ASSIGN(auto output, io_->NewOutputFile(At("big/file.parquet")));
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, output->Create());
  for (size_t at = 0; at < content.size(); at += 777'777) {
    FLOE_ASSERT_OK(writer->Write(std::string_view(content).substr(at, 777'777)));
  }
  EXPECT_EQ(writer->position(), static_cast<int64_t>(content.size()));
  // Nothing is visible until Close.
  EXPECT_FALSE(io_->Exists(At("big/file.parquet")).value());
  FLOE_ASSERT_OK(writer->Close());

  FLOE_ASSERT_OK_AND_ASSIGN(S3ObjectInfo info, io_->client().Head(bucket_, "big/file.parquet"));
  EXPECT_EQ(info.size, static_cast<int64_t>(content.size()));
  EXPECT_NE(info.etag.find("-3"), std::string::npos) << "not a 3-part upload: " << info.etag;
  FLOE_ASSERT_OK_AND_ASSIGN(std::string back, io_->ReadFile(At("big/file.parquet")));
  EXPECT_TRUE(back == content);

  // A second Create of the same key fails, before and regardless of any upload.
  EXPECT_EQ(output->Create().error().kind(), ErrorKind::kAlreadyExists);
}

TEST_F(S3FileIOTest, AbandonedAndFailedUploadsLeaveNothing) {
  {
    FLOE_ASSERT_OK_AND_ASSIGN(auto output, io_->NewOutputFile(At("dropped.parquet")));
    FLOE_ASSERT_OK_AND_ASSIGN(auto writer, output->Create());
    FLOE_ASSERT_OK(writer->Write(Pattern(11 << 20, 2)));  // parts are on their way
  }
  EXPECT_FALSE(io_->Exists(At("dropped.parquet")).value());
  floe::testing::CommandRun uploads = floe::testing::RunCommand(fmt::format(
      "AWS_ACCESS_KEY_ID=k AWS_SECRET_ACCESS_KEY=s aws --region us-east-1 --endpoint-url {} "
      "s3api list-multipart-uploads --bucket {} --output text 2>&1",
      floe::testing::S3Server::Get().endpoint(), bucket_));
  if (uploads.exit_code == 0) {
    EXPECT_EQ(uploads.out.find("UPLOADS"), std::string::npos) << uploads.out;
  }

  // A bucket that is not there: the error names the operation, the object and the store's code.
  FLOE_ASSERT_OK_AND_ASSIGN(auto output, io_->NewOutputFile("s3://no-such-bucket-floe/t/x"));
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, output->CreateOrOverwrite());
  auto written = writer->Write(Pattern(6 << 20, 3));
  ASSERT_FALSE(written.has_value());
  EXPECT_EQ(written.error().kind(), ErrorKind::kNotFound);
  EXPECT_NE(written.error().message().find("S3 CreateMultipartUpload s3://no-such-bucket-floe/t/x: "
                                           "NoSuchBucket (HTTP 404)"),
            std::string::npos)
      << written.error().message();
  // The writer keeps failing.
  EXPECT_FALSE(writer->Write(std::string_view("more")).has_value());
  EXPECT_FALSE(writer->Close().has_value());
}

TEST_F(S3FileIOTest, MissingObjectErrorNamesCodeAndObject) {
  auto missing = io_->NewInputFile(At("metadata/v9.metadata.json"));
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
  EXPECT_NE(missing.error().message().find(
                fmt::format("S3 HeadObject s3://{}/metadata/v9.metadata.json: NoSuchKey", bucket_)),
            std::string::npos)
      << missing.error().message();
  auto get = io_->client().Get(bucket_, "nope");
  ASSERT_FALSE(get.has_value());
  EXPECT_NE(get.error().message().find("NoSuchKey (HTTP 404)"), std::string::npos)
      << get.error().message();
}

TEST_F(S3FileIOTest, KnownSizeOpensWithoutAHead) {
  FLOE_ASSERT_OK(io_->WriteFile(At("data/a.parquet"), "0123456789", false));
  FLOE_ASSERT_OK_AND_ASSIGN(auto input, io_->NewInputFileOfSize(At("data/a.parquet"), 10));
  std::string middle(4, '\0');
  FLOE_ASSERT_OK(input->ReadAt(3, std::as_writable_bytes(std::span(middle))));
  EXPECT_EQ(middle, "3456");
  // A file that is not there shows at the first read, not at the open.
  FLOE_ASSERT_OK_AND_ASSIGN(auto ghost, io_->NewInputFileOfSize(At("data/ghost.parquet"), 10));
  auto read = ghost->ReadAt(0, std::as_writable_bytes(std::span(middle)));
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().kind(), ErrorKind::kNotFound);
  // A size larger than the object's fails the read instead of returning other bytes.
  FLOE_ASSERT_OK_AND_ASSIGN(auto wrong, io_->NewInputFileOfSize(At("data/a.parquet"), 12));
  std::string tail(4, '\0');
  EXPECT_FALSE(wrong->ReadAt(8, std::as_writable_bytes(std::span(tail))).has_value());
}

TEST_F(S3FileIOTest, ListsPastOnePageAndDeletesInBatches) {
  constexpr int kFiles = 1010;  // more than the 1000 keys of one ListObjectsV2 page
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = t; i < kFiles; i += 8) {
        if (!io_->WriteFile(At(fmt::format("t/data/f-{:05}", i)), "x", true)) ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  ASSERT_EQ(failures.load(), 0);
  FLOE_ASSERT_OK(io_->WriteFile(At("t/metadata/v1.metadata.json"), "{}", false));

  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<FileEntry> files, io_->List(At("t/data")));
  ASSERT_EQ(files.size(), static_cast<size_t>(kFiles));
  for (int i = 0; i < kFiles; ++i) ASSERT_EQ(files[i].name, fmt::format("f-{:05}", i));
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<FileEntry> all, io_->ListRecursive(At("t")));
  EXPECT_EQ(all.size(), static_cast<size_t>(kFiles) + 3);  // two folders and the metadata file

  FLOE_ASSERT_OK(io_->DeleteRecursive(At("t")));
  FLOE_ASSERT_OK_AND_ASSIGN(S3Listing left, io_->client().List(bucket_, "t/", ""));
  EXPECT_TRUE(left.objects.empty());
  EXPECT_EQ(io_->DeleteRecursive(At("t")).error().kind(), ErrorKind::kNotFound);
}

TEST_F(S3FileIOTest, ConditionalCreateIsHonouredAndExclusive) {
  FLOE_ASSERT_OK_AND_ASSIGN(bool honoured, io_->SupportsExclusiveCreate(At("wh")));
  EXPECT_TRUE(honoured);
  // The probe leaves nothing behind.
  FLOE_ASSERT_OK_AND_ASSIGN(S3Listing left, io_->client().List(bucket_, "", ""));
  EXPECT_TRUE(left.objects.empty());

  FLOE_ASSERT_OK(io_->WriteFileAtomically(At("m/v1.metadata.json"), "first", false));
  auto second = io_->WriteFileAtomically(At("m/v1.metadata.json"), "second", false);
  ASSERT_FALSE(second.has_value());
  EXPECT_EQ(second.error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(io_->ReadFile(At("m/v1.metadata.json")).value(), "first");
  // No temporary files: one PUT.
  FLOE_ASSERT_OK_AND_ASSIGN(S3Listing objects, io_->client().List(bucket_, "m/", ""));
  ASSERT_EQ(objects.objects.size(), 1u);
}

TEST_F(S3FileIOTest, KeysWithCharactersThatNeedEscaping) {
  const std::string key = "t/data/p=a b+c%d/é&<x>.parquet";
  FLOE_ASSERT_OK(io_->WriteFile(At(key), "escaped", false));
  EXPECT_EQ(io_->ReadFile(At(key)).value(), "escaped");
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<FileEntry> listed, io_->List(At("t/data")));
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].name, "p=a b+c%d");
  FLOE_ASSERT_OK(io_->DeleteRecursive(At("t")));
  EXPECT_FALSE(io_->Exists(At(key)).value());
}

// Against a server that verifies SigV4 with the secret of an IAM key: floe's signatures of every
// kind of request it sends pass, and a wrong secret gives a clean signature error.
TEST(S3CredentialsTest, SignaturesVerifyAndAWrongSecretIsRefused) {
  const floe::testing::S3Server& server = floe::testing::S3Server::Authenticating();
  if (!server.running()) GTEST_SKIP() << "no S3 server: " << server.reason();
  std::string aws = fmt::format(
      "AWS_ACCESS_KEY_ID=setup AWS_SECRET_ACCESS_KEY=setup AWS_DEFAULT_REGION=us-east-1 aws "
      "--endpoint-url {} --output text ",
      server.endpoint());
  if (floe::testing::RunCommand("command -v aws").exit_code != 0) {
    GTEST_SKIP() << "the aws CLI (to create the IAM user) is not installed";
  }
  ASSERT_EQ(floe::testing::RunCommand(aws + "iam create-user --user-name floe").exit_code, 0);
  floe::testing::CommandRun key =
      floe::testing::RunCommand(aws + "iam create-access-key --user-name floe");
  ASSERT_EQ(key.exit_code, 0) << key.err;
  // ACCESSKEY <id> <created> <secret> <status> <user>
  std::istringstream fields(key.out);
  std::string tag, id, created, secret;
  fields >> tag >> id >> created >> secret;
  ASSERT_EQ(tag, "ACCESSKEY") << key.out;
  floe::testing::CommandRun policy = floe::testing::RunCommand(
      aws + "iam put-user-policy --user-name floe --policy-name all --policy-document " +
      floe::testing::ShellQuote(
          R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]})"));
  ASSERT_EQ(policy.exit_code, 0) << policy.err;

  S3Options options;
  options.endpoint = server.endpoint();
  options.path_style = true;
  options.credentials = {id, secret, ""};
  options.part_size = 5 << 20;
  options.multipart_threshold = 1.0;
  S3FileIO io(options);
  FLOE_ASSERT_OK(io.client().CreateBucket("signed"));
  // PUT, HEAD, ranged GET, multipart (queries and a POST body) and DELETE, each signed. Not
  // ListObjectsV2: moto checks a signature over the query as it decoded it ("prefix=a/", where
  // the request and its signature have "prefix=a%2F", as SigV4 wants), so botocore's own listing
  // fails there just the same; SigV4Test.EncodedQueryValuesAreSignedAsSent checks that signature
  // against botocore's instead.
  FLOE_ASSERT_OK(io.WriteFile("s3://signed/a/b c.json", "{\"k\": 1}", false));
  EXPECT_EQ(io.ReadFile("s3://signed/a/b c.json").value_or(""), "{\"k\": 1}");
  std::string big = Pattern(6 << 20, 4);
  FLOE_ASSERT_OK(io.WriteFile("s3://signed/a/big", big, false));
  EXPECT_TRUE(io.ReadFile("s3://signed/a/big").value_or("") == big);
  FLOE_ASSERT_OK(io.Delete("s3://signed/a/b c.json"));
  FLOE_ASSERT_OK(io.Delete("s3://signed/a/big"));

  options.credentials.secret_access_key = "not-the-secret";
  S3FileIO wrong(options);
  auto read = wrong.ReadFile("s3://signed/anything");
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().kind(), ErrorKind::kIO);
  EXPECT_NE(read.error().message().find("HTTP 403"), std::string::npos) << read.error().message();
  EXPECT_EQ(read.error().message().find("not-the-secret"), std::string::npos);
  EXPECT_EQ(read.error().message().find(secret), std::string::npos);
}

}  // namespace
}  // namespace floe::io
