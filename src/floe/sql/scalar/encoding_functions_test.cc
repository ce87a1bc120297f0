// Hashes, base64, HEX and BIN over the sample rows against DuckDB, and against Python's hashlib
// and base64 computing the same digests of the same strings.

#include <gtest/gtest.h>

#include "floe/sql/scalar/peer_check_test_support.h"
#include "floe/testing/testing.h"

namespace floe::sql::scalar {
namespace {

using testing::EvalOne;
using testing::EvalSample;
using testing::ExpectSameAsDuckDb;

// The sample rows' strings (column s), as Python literals, None for NULL.
constexpr char kPythonSampleStrings[] = "['abc', 'Hello World', '', None, '  pad  ', 'a_b%c']";

struct PythonCase {
  std::string floe;
  std::string python;  // an expression of s, a Python str
};

// Runs one Python program printing, for each case, one line per sample string: the case's
// expression of it (NULL for None); then expects floe's values over the sample rows to match.
void ExpectSameAsPython(const std::vector<PythonCase>& cases) {
  std::string program = "import base64, hashlib\n";
  for (const PythonCase& c : cases) {
    program += fmt::format("for s in {}:\n    print('NULL' if s is None else ({}))\n",
                           kPythonSampleStrings, c.python);
  }
  floe::testing::CommandRun run =
      floe::testing::RunCommand("python3 -c " + floe::testing::ShellQuote(program));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::vector<std::string> lines;
  for (size_t start = 0; start < run.out.size();) {
    const size_t end = run.out.find('\n', start);
    lines.push_back(run.out.substr(start, end - start));
    start = end + 1;
  }
  size_t line = 0;
  for (const PythonCase& c : cases) {
    for (const std::string& ours : EvalSample(c.floe)) {
      ASSERT_LT(line, lines.size()) << c.floe;
      EXPECT_EQ(ours, lines[line++]) << c.floe;
    }
  }
  EXPECT_EQ(line, lines.size());
}

TEST(EncodingFunctionsTest, DigestsLikePythonHashlib) {
  if (floe::testing::RunCommand("python3 -c 'import hashlib'").exit_code != 0) {
    GTEST_SKIP() << "python3 with hashlib not installed";
  }
  ExpectSameAsPython({
      {"MD5(s)", "hashlib.md5(s.encode()).hexdigest()"},
      {"SHA1(s)", "hashlib.sha1(s.encode()).hexdigest()"},
      {"SHA224(s)", "hashlib.sha224(s.encode()).hexdigest()"},
      {"SHA256(s)", "hashlib.sha256(s.encode()).hexdigest()"},
      {"SHA384(s)", "hashlib.sha384(s.encode()).hexdigest()"},
      {"SHA512(s)", "hashlib.sha512(s.encode()).hexdigest()"},
      {"SHA2(s, 224)", "hashlib.sha224(s.encode()).hexdigest()"},
      {"SHA2(s, 512)", "hashlib.sha512(s.encode()).hexdigest()"},
      {"TO_BASE64(s)", "base64.b64encode(s.encode()).decode()"},
      {"FROM_BASE64(TO_BASE64(s))", "s"},
      {"HEX(s)", "s.encode().hex().upper()"},
      // Non-ASCII text hashes its UTF-8 bytes.
      {"MD5(s || 'é')", "hashlib.md5((s + 'é').encode()).hexdigest()"},
      {"TO_BASE64(s || 'é')", "base64.b64encode((s + 'é').encode()).decode()"},
  });
}

TEST(EncodingFunctionsTest, LikeDuckDb) {
  ExpectSameAsDuckDb({
      {"MD5(s)", ""},
      {"SHA1(s)", ""},
      {"SHA256(s)", ""},
      {"TO_BASE64(s)", "to_base64(s::BLOB)"},
      {"HEX(s)", ""},
      {"HEX(i)", "hex(i::BIGINT)"},
      {"BIN(i)", "bin(i::BIGINT)"},
      {"BIN(j)", "bin(j::BIGINT)"},
  });
}

TEST(EncodingFunctionsTest, FlinkDocumentedValuesAndErrors) {
  // Flink docs: BIN(4) is '100', BIN(12) '1100'; HEX(20) '14', HEX(100) '64',
  // HEX('hello,world') '68656C6C6F2C776F726C64'; FROM_BASE64('aGVsbG8gd29ybGQ=') 'hello world',
  // TO_BASE64('hello world') 'aGVsbG8gd29ybGQ='.
  EXPECT_EQ(EvalOne("BIN(4)"), "100");
  EXPECT_EQ(EvalOne("BIN(12)"), "1100");
  EXPECT_EQ(EvalOne("HEX(20)"), "14");
  EXPECT_EQ(EvalOne("HEX(100)"), "64");
  EXPECT_EQ(EvalOne("HEX('hello,world')"), "68656C6C6F2C776F726C64");
  EXPECT_EQ(EvalOne("FROM_BASE64('aGVsbG8gd29ybGQ=')"), "hello world");
  EXPECT_EQ(EvalOne("FROM_BASE64('aGVsbG8gd29ybGQ')"), "hello world");
  EXPECT_EQ(EvalOne("TO_BASE64('hello world')"), "aGVsbG8gd29ybGQ=");
  // Java's Long.toBinaryString / toHexString of a negative long: 64-bit two's complement.
  EXPECT_EQ(EvalOne("HEX(-1)"), "FFFFFFFFFFFFFFFF");
  EXPECT_EQ(EvalOne("BIN(-1)"), std::string(64, '1'));
  EXPECT_EQ(EvalOne("MD5(NULL)"), "NULL");
  EXPECT_EQ(EvalOne("SHA2(NULL, 256)"), "NULL");
  EXPECT_EQ(EvalOne("SHA2('a', NULL)"), "NULL");
  EXPECT_EQ(EvalOne("SHA2('a', 100)"),
            "EVAL ERROR: line 1, column 1: SHA2('a', 100): the hash length must be 224, 256, 384 "
            "or 512, not 100");
  EXPECT_EQ(EvalOne("FROM_BASE64('a$b=')"),
            "EVAL ERROR: line 1, column 1: FROM_BASE64('a$b='): 'a$b=' is not base64");
  EXPECT_EQ(EvalOne("FROM_BASE64('abcde')"),
            "EVAL ERROR: line 1, column 1: FROM_BASE64('abcde'): 'abcde' is not base64");
  EXPECT_EQ(EvalOne("MD5(i)"),
            "BIND ERROR: line 1, column 1: MD5: argument 1 must be a STRING, not INT");
  EXPECT_EQ(EvalOne("BIN(x)"),
            "BIND ERROR: line 1, column 1: BIN: argument 1 must be an integer, not DOUBLE");
}

}  // namespace
}  // namespace floe::sql::scalar
