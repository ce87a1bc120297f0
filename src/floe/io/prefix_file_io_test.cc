#include "floe/io/prefix_file_io.h"

#include <gtest/gtest.h>

#include "floe/testing/testing.h"

namespace floe::io {
namespace {

// Bad S3 settings surface at the first use of S3 under them, naming the property: that tells which
// configuration served a location without any server.
bool ServedWithBadPartSize(FileIO& io, std::string_view location) {
  auto info = io.GetInfo(location);
  return !info.has_value() && info.error().kind() == ErrorKind::kInvalidArgument &&
         info.error().message().find("s3.multipart.part-size-bytes") != std::string::npos;
}

TEST(PrefixFileIOTest, EachLocationGoesToItsLongestConfiguredPrefix) {
  PrefixFileIO io(Properties{{"s3.multipart.part-size-bytes", "12"}});
  EXPECT_TRUE(ServedWithBadPartSize(io, "s3://b/t/data/f.parquet"));

  Properties good{{"s3.multipart.part-size-bytes", "5242880"},
                  {"s3.endpoint", "http://127.0.0.1:9"},
                  {"s3.retry.max-attempts", "1"},
                  {"s3.connection-timeout-ms", "200"}};
  io.Configure("s3://b/t/", good);
  io.Configure("s3://b/t/data/old/", Properties{{"s3.multipart.part-size-bytes", "7"}});
  EXPECT_FALSE(ServedWithBadPartSize(io, "s3://b/t/data/f.parquet"));
  EXPECT_TRUE(ServedWithBadPartSize(io, "s3://b/t/data/old/f.parquet"));
  EXPECT_TRUE(ServedWithBadPartSize(io, "s3://b/other/f.parquet"));

  // Keys that do not concern storage configure nothing.
  io.Configure("s3://b/other/", Properties{{"write.format.default", "avro"}});
  EXPECT_TRUE(ServedWithBadPartSize(io, "s3://b/other/f.parquet"));
  // A later configuration of a prefix replaces the earlier one.
  io.Configure("s3://b/t/", Properties{{"s3.multipart.part-size-bytes", "3"}});
  EXPECT_TRUE(ServedWithBadPartSize(io, "s3://b/t/data/f.parquet"));
}

TEST(PrefixFileIOTest, RenamesNeedBothLocationsOnOneBackend) {
  PrefixFileIO io(Properties{});
  io.Configure("s3://b/t/", Properties{{"s3.endpoint", "http://127.0.0.1:9"}});
  Status across = io.Rename("s3://b/t/a", "s3://b/u/a");
  ASSERT_FALSE(across.has_value());
  EXPECT_EQ(across.error().kind(), ErrorKind::kUnsupported);
  EXPECT_NE(across.error().message().find("different storage"), std::string::npos);
  Status to_local = io.RenameNoReplace("s3://b/u/a", "/tmp/a");
  ASSERT_FALSE(to_local.has_value());
  EXPECT_EQ(to_local.error().kind(), ErrorKind::kUnsupported);
}

}  // namespace
}  // namespace floe::io
