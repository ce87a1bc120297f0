#include "floe/sql/syntax/parser.h"

#include <gtest/gtest.h>

#include "floe/sql/syntax/printer.h"

namespace floe::sql {
namespace {

// Parses, prints, and checks that the printed form parses back to the same print.
std::string Canonical(std::string_view sql) {
  auto statement = ParseStatement(sql);
  if (!statement) return "ERROR: " + statement.error().message();
  std::string printed = PrintStatement(*statement);
  auto again = ParseStatement(printed);
  if (!again) return "REPARSE ERROR: " + again.error().message() + " in " + printed;
  EXPECT_EQ(PrintStatement(*again), printed) << sql;
  return printed;
}

std::string ErrorOf(std::string_view sql) {
  auto statement = ParseStatement(sql);
  if (statement) return "parsed: " + PrintStatement(*statement);
  return statement.error().message();
}

TEST(ParserTest, Catalogs) {
  EXPECT_EQ(Canonical("create catalog if not exists c with ('type'='iceberg')"),
            "CREATE CATALOG IF NOT EXISTS `c` WITH ('type' = 'iceberg')");
  EXPECT_EQ(Canonical("DROP CATALOG IF EXISTS c"), "DROP CATALOG IF EXISTS `c`");
  EXPECT_EQ(Canonical("drop catalog c"), "DROP CATALOG `c`");
  EXPECT_EQ(Canonical("show catalogs"), "SHOW CATALOGS");
  EXPECT_EQ(Canonical("SHOW CURRENT CATALOG"), "SHOW CURRENT CATALOG");
  EXPECT_EQ(Canonical("show current database"), "SHOW CURRENT DATABASE");
}

TEST(ParserTest, Databases) {
  EXPECT_EQ(Canonical("CREATE DATABASE IF NOT EXISTS c.db COMMENT 'it''s' WITH ('k'='v')"),
            "CREATE DATABASE IF NOT EXISTS `c`.`db` COMMENT 'it''s' WITH ('k' = 'v')");
  EXPECT_EQ(Canonical("DROP DATABASE IF EXISTS db CASCADE"),
            "DROP DATABASE IF EXISTS `db` CASCADE");
  EXPECT_EQ(Canonical("DROP DATABASE db RESTRICT"), "DROP DATABASE `db` RESTRICT");
  EXPECT_EQ(Canonical("ALTER DATABASE db SET ('a'='1', 'b'='2')"),
            "ALTER DATABASE `db` SET ('a' = '1', 'b' = '2')");
  EXPECT_EQ(Canonical("USE cat.db"), "USE `cat`.`db`");
  EXPECT_EQ(Canonical("SHOW DATABASES"), "SHOW DATABASES");
}

TEST(ParserTest, CreateTableWithEveryType) {
  EXPECT_EQ(
      Canonical("CREATE TABLE IF NOT EXISTS t (a BOOLEAN, b TINYINT, c SMALLINT, d INTEGER, "
                "e BIGINT, f FLOAT, g DOUBLE PRECISION, h DECIMAL(38, 10), i DEC(5), j NUMERIC, "
                "k CHAR(3), l VARCHAR(10), m STRING, n BINARY(16), o VARBINARY(8), p BYTES, "
                "q DATE, r TIME(3), s TIMESTAMP(6), u TIMESTAMP_LTZ(3), "
                "v TIMESTAMP(3) WITH LOCAL TIME ZONE, w TIMESTAMP WITHOUT TIME ZONE, "
                "x TIMESTAMP(9) WITH TIME ZONE, y ARRAY<ARRAY<INT NOT NULL>>, "
                "z MAP<STRING, ROW<a INT 'first', `b c` DOUBLE>>, aa MULTISET<STRING>, "
                "bb ROW(x INT, y STRING) NOT NULL, cc INT NULL)"),
      "CREATE TABLE IF NOT EXISTS `t` (`a` BOOLEAN, `b` TINYINT, `c` SMALLINT, `d` INT, `e` "
      "BIGINT, `f` FLOAT, `g` DOUBLE, `h` DECIMAL(38, 10), `i` DECIMAL(5), `j` DECIMAL, `k` "
      "CHAR(3), `l` VARCHAR(10), `m` STRING, `n` BINARY(16), `o` VARBINARY(8), `p` BYTES, `q` "
      "DATE, `r` TIME(3), `s` TIMESTAMP(6), `u` TIMESTAMP_LTZ(3), `v` TIMESTAMP_LTZ(3), `w` "
      "TIMESTAMP, `x` TIMESTAMP(9) WITH TIME ZONE, `y` ARRAY<ARRAY<INT NOT NULL>>, `z` "
      "MAP<STRING, ROW<`a` INT 'first', `b c` DOUBLE>>, `aa` MULTISET<STRING>, `bb` ROW<`x` INT, "
      "`y` STRING> NOT NULL, `cc` INT)");
}

TEST(ParserTest, CreateTableClauses) {
  EXPECT_EQ(Canonical("CREATE TABLE t (id BIGINT PRIMARY KEY NOT ENFORCED, ts TIMESTAMP(6), "
                      "name STRING) COMMENT 'events' PARTITIONED BY (bucket(16, id), "
                      "truncate(4, name), years(ts), month(ts), days(ts), hour(ts), name) "
                      "WITH ('format-version'='2')"),
            "CREATE TABLE `t` (`id` BIGINT, `ts` TIMESTAMP(6), `name` STRING, PRIMARY KEY (`id`) "
            "NOT ENFORCED) COMMENT 'events' PARTITIONED BY (bucket(16, `id`), truncate(4, "
            "`name`), years(`ts`), months(`ts`), days(`ts`), hours(`ts`), `name`) WITH "
            "('format-version' = '2')");
  EXPECT_EQ(Canonical("CREATE TABLE k (o BIGINT METADATA FROM 'offset' VIRTUAL, topic STRING "
                      "METADATA, p INT METADATA VIRTUAL COMMENT 'x')"),
            "CREATE TABLE `k` (`o` BIGINT METADATA FROM 'offset' VIRTUAL, `topic` STRING "
            "METADATA, `p` INT METADATA VIRTUAL COMMENT 'x')");
  EXPECT_EQ(Canonical("CREATE TABLE t (a INT, CONSTRAINT pk PRIMARY KEY (a, b) NOT ENFORCED)"),
            "CREATE TABLE `t` (`a` INT, PRIMARY KEY (`a`, `b`) NOT ENFORCED)");
  EXPECT_EQ(Canonical("CREATE TABLE t2 WITH ('k'='v') LIKE t (EXCLUDING OPTIONS, including all)"),
            "CREATE TABLE `t2` WITH ('k' = 'v') LIKE `t` (EXCLUDING OPTIONS, INCLUDING ALL)");
  EXPECT_EQ(Canonical("CREATE TABLE t2 WITH ('format-version'='2') AS SELECT a, b FROM t"),
            "CREATE TABLE `t2` WITH ('format-version' = '2') AS SELECT `a`, `b` FROM `t`");
}

TEST(ParserTest, AlterTable) {
  EXPECT_EQ(Canonical("ALTER TABLE t RESET ('a', 'b')"), "ALTER TABLE `t` RESET ('a', 'b')");
  EXPECT_EQ(Canonical("ALTER TABLE IF EXISTS t RENAME a TO b"),
            "ALTER TABLE IF EXISTS `t` RENAME `a` TO `b`");
  EXPECT_EQ(Canonical("ALTER TABLE t ADD (x INT NOT NULL COMMENT 'c' FIRST, y STRING AFTER x)"),
            "ALTER TABLE `t` ADD (`x` INT NOT NULL COMMENT 'c' FIRST, `y` STRING AFTER `x`)");
  EXPECT_EQ(Canonical("ALTER TABLE t ADD z DOUBLE"), "ALTER TABLE `t` ADD (`z` DOUBLE)");
  EXPECT_EQ(Canonical("ALTER TABLE t ADD (PRIMARY KEY (id) NOT ENFORCED)"),
            "ALTER TABLE `t` ADD (PRIMARY KEY (`id`) NOT ENFORCED)");
  EXPECT_EQ(Canonical("ALTER TABLE t MODIFY (x BIGINT AFTER y)"),
            "ALTER TABLE `t` MODIFY (`x` BIGINT AFTER `y`)");
  EXPECT_EQ(Canonical("ALTER TABLE t MODIFY x BIGINT FIRST"),
            "ALTER TABLE `t` MODIFY (`x` BIGINT FIRST)");
  EXPECT_EQ(Canonical("ALTER TABLE t DROP (a, b)"), "ALTER TABLE `t` DROP (`a`, `b`)");
  EXPECT_EQ(Canonical("ALTER TABLE t DROP a"), "ALTER TABLE `t` DROP (`a`)");
  EXPECT_EQ(Canonical("ALTER TABLE t ADD PARTITION FIELD bucket(8, id) AS shard"),
            "ALTER TABLE `t` ADD PARTITION FIELD bucket(8, `id`) AS `shard`");
  EXPECT_EQ(Canonical("ALTER TABLE t DROP PARTITION FIELD days(ts)"),
            "ALTER TABLE `t` DROP PARTITION FIELD days(`ts`)");
  EXPECT_EQ(Canonical("ALTER TABLE t REPLACE PARTITION FIELD days(ts) WITH hours(ts)"),
            "ALTER TABLE `t` REPLACE PARTITION FIELD days(`ts`) WITH hours(`ts`)");
}

TEST(ParserTest, ShowDescribeDrop) {
  EXPECT_EQ(Canonical("DROP TABLE IF EXISTS db.t"), "DROP TABLE IF EXISTS `db`.`t`");
  EXPECT_EQ(Canonical("SHOW TABLES"), "SHOW TABLES");
  EXPECT_EQ(Canonical("SHOW TABLES IN db"), "SHOW TABLES FROM `db`");
  EXPECT_EQ(Canonical("SHOW CREATE TABLE c.db.t"), "SHOW CREATE TABLE `c`.`db`.`t`");
  EXPECT_EQ(Canonical("DESC t"), "DESCRIBE `t`");
  EXPECT_EQ(Canonical("describe extended t"), "DESCRIBE EXTENDED `t`");
  EXPECT_EQ(Canonical("SHOW JOBS"), "SHOW JOBS");
  EXPECT_EQ(Canonical("STOP JOB 'abc' WITH SAVEPOINT"), "STOP JOB 'abc' WITH SAVEPOINT");
}

TEST(ParserTest, SetAndReset) {
  EXPECT_EQ(Canonical("SET 'sql-client.execution.result-mode' = 'tableau'"),
            "SET 'sql-client.execution.result-mode' = 'tableau'");
  EXPECT_EQ(Canonical("SET"), "SET");
  EXPECT_EQ(Canonical("SET execution.checkpointing.interval = 10 s"),
            "SET 'execution.checkpointing.interval' = '10 s'");
  EXPECT_EQ(Canonical("SET pipeline.name = 'my job'"), "SET 'pipeline.name' = 'my job'");
  EXPECT_EQ(Canonical("RESET 'parallelism.default'"), "RESET 'parallelism.default'");
  EXPECT_EQ(Canonical("RESET parallelism.default"), "RESET 'parallelism.default'");
  EXPECT_EQ(Canonical("RESET"), "RESET");
}

TEST(ParserTest, Inserts) {
  EXPECT_EQ(Canonical("INSERT INTO t (a, b) VALUES (1, 'x'), (-2, NULL)"),
            "INSERT INTO `t` (`a`, `b`) VALUES (1, 'x'), (-2, NULL)");
  EXPECT_EQ(Canonical("INSERT OVERWRITE t PARTITION (d = DATE '2024-01-02', h = 3) "
                      "SELECT a FROM s"),
            "INSERT OVERWRITE `t` PARTITION (`d` = DATE '2024-01-02', `h` = 3) SELECT `a` FROM "
            "`s`");
  EXPECT_EQ(Canonical("INSERT INTO t (SELECT * FROM s)"), "INSERT INTO `t` SELECT * FROM `s`");
  EXPECT_EQ(Canonical("INSERT INTO TABLE t /*+ OPTIONS('write-parallelism'='2') */ SELECT 1"),
            "INSERT INTO `t` /*+ OPTIONS('write-parallelism' = '2') */ SELECT 1");
}

TEST(ParserTest, Queries) {
  EXPECT_EQ(Canonical("select distinct a, b + 1 as c, count(*), count(distinct d) n "
                      "from c.db.t$snapshots x where a > 1 and not b is null "
                      "group by a, b having count(*) >= 2 order by a desc nulls last, b "
                      "limit 10 offset 5"),
            "SELECT DISTINCT `a`, `b` + 1 AS `c`, count(*), count(DISTINCT `d`) AS `n` FROM "
            "`c`.`db`.`t$snapshots` AS `x` WHERE `a` > 1 AND NOT `b` IS NULL GROUP BY `a`, `b` "
            "HAVING count(*) >= 2 ORDER BY `a` DESC NULLS LAST, `b` ASC LIMIT 10 OFFSET 5");
  EXPECT_EQ(Canonical("SELECT * FROM `t$history`"), "SELECT * FROM `t$history`");
  EXPECT_EQ(Canonical("SELECT a FROM t UNION ALL SELECT b FROM u UNION SELECT c FROM v ORDER BY 1"),
            "SELECT `a` FROM `t` UNION ALL SELECT `b` FROM `u` UNION SELECT `c` FROM `v` ORDER BY "
            "1 ASC");
  EXPECT_EQ(Canonical("SELECT t.*, u.x FROM t JOIN u ON t.id = u.id LEFT OUTER JOIN w ON "
                      "w.k = t.k CROSS JOIN z, y"),
            "SELECT `t`.*, `u`.`x` FROM `t` JOIN `u` ON `t`.`id` = `u`.`id` LEFT JOIN `w` ON "
            "`w`.`k` = `t`.`k` CROSS JOIN `z`, `y`");
  EXPECT_EQ(Canonical("SELECT * FROM (SELECT a FROM t) s"),
            "SELECT * FROM (SELECT `a` FROM `t`) AS `s`");
  EXPECT_EQ(Canonical("VALUES (1), (2)"), "VALUES (1), (2)");
  EXPECT_EQ(Canonical("(SELECT a FROM t LIMIT 1) UNION ALL SELECT 2"),
            "(SELECT `a` FROM `t` LIMIT 1) UNION ALL SELECT 2");
}

// INTERSECT binds tighter than UNION and EXCEPT, which associate to the left; the printer adds
// the parentheses that keep that shape.
TEST(ParserTest, SetOperationsAndWith) {
  EXPECT_EQ(Canonical("SELECT a FROM t UNION SELECT b FROM u INTERSECT ALL SELECT c FROM v"),
            "SELECT `a` FROM `t` UNION (SELECT `b` FROM `u` INTERSECT ALL SELECT `c` FROM `v`)");
  EXPECT_EQ(Canonical("SELECT 1 EXCEPT SELECT 2 EXCEPT ALL SELECT 3 UNION DISTINCT SELECT 4"),
            "(SELECT 1 EXCEPT SELECT 2 EXCEPT ALL SELECT 3) UNION SELECT 4");
  EXPECT_EQ(Canonical("SELECT 1 EXCEPT (SELECT 2 EXCEPT SELECT 3)"),
            "SELECT 1 EXCEPT (SELECT 2 EXCEPT SELECT 3)");
  EXPECT_EQ(
      Canonical("WITH a (x) AS (SELECT 1), b AS (SELECT x FROM a) SELECT * FROM b ORDER BY 1"),
      "WITH `a`(`x`) AS (SELECT 1), `b` AS (SELECT `x` FROM `a`) SELECT * FROM `b` ORDER BY "
      "1 ASC");
  EXPECT_EQ(Canonical("INSERT INTO t WITH a AS (SELECT 1) SELECT * FROM a"),
            "INSERT INTO `t` WITH `a` AS (SELECT 1) SELECT * FROM `a`");
  EXPECT_EQ(Canonical("SELECT * FROM (WITH a AS (SELECT 1) SELECT * FROM a) s"),
            "SELECT * FROM (WITH `a` AS (SELECT 1) SELECT * FROM `a`) AS `s`");
  // INTERSECT is reserved, so it is no alias.
  EXPECT_EQ(Canonical("SELECT a FROM t INTERSECT SELECT a FROM u"),
            "SELECT `a` FROM `t` INTERSECT SELECT `a` FROM `u`");
  EXPECT_EQ(Canonical("SELECT JSON_OBJECT('a' VALUE 1, KEY 'b' VALUE x ABSENT ON NULL), "
                      "JSON_ARRAY(), JSON_ARRAY(NULL ON NULL), JSON_ARRAY(1, 'x')"),
            "SELECT JSON_OBJECT(KEY 'a' VALUE 1, KEY 'b' VALUE `x` ABSENT ON NULL), JSON_ARRAY(), "
            "JSON_ARRAY(NULL ON NULL), JSON_ARRAY(1, 'x')");
  auto missing = ParseStatement("WITH a SELECT 1");
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message().find("AS"), std::string::npos) << missing.error().message();
}

TEST(ParserTest, Expressions) {
  EXPECT_EQ(Canonical("SELECT (a + b) * c, a + b * c, a - (b - c), -(-1), - -1, a || 'x'"),
            "SELECT (`a` + `b`) * `c`, `a` + `b` * `c`, `a` - (`b` - `c`), - -1, - -1, `a` || "
            "'x'");
  EXPECT_EQ(Canonical("SELECT a OR b AND c, (a OR b) AND c, NOT (a AND b), a <> b, a != b"),
            "SELECT `a` OR `b` AND `c`, (`a` OR `b`) AND `c`, NOT (`a` AND `b`), `a` <> `b`, `a` "
            "<> `b`");
  EXPECT_EQ(Canonical("SELECT a IN (1, 2), a NOT IN (SELECT x FROM s), a BETWEEN 1 AND 2 + 3, "
                      "a NOT BETWEEN b AND c, a LIKE 'x%' ESCAPE '\\', a NOT LIKE 'y', "
                      "a IS NOT NULL"),
            "SELECT `a` IN (1, 2), `a` NOT IN (SELECT `x` FROM `s`), `a` BETWEEN 1 AND 2 + 3, "
            "`a` NOT BETWEEN `b` AND `c`, `a` LIKE 'x%' ESCAPE '\\', `a` NOT LIKE 'y', `a` IS NOT "
            "NULL");
  EXPECT_EQ(Canonical("SELECT CASE WHEN a = 1 THEN 'one' WHEN a = 2 THEN 'two' ELSE 'many' END, "
                      "CASE a WHEN 1 THEN TRUE END, CAST(a AS DECIMAL(10, 2)), "
                      "TRY_CAST(b AS INT), cast(c as timestamp(3) with local time zone)"),
            "SELECT CASE WHEN `a` = 1 THEN 'one' WHEN `a` = 2 THEN 'two' ELSE 'many' END, CASE "
            "`a` WHEN 1 THEN TRUE END, CAST(`a` AS DECIMAL(10, 2)), TRY_CAST(`b` AS INT), "
            "CAST(`c` AS TIMESTAMP_LTZ(3))");
  EXPECT_EQ(Canonical("SELECT DATE '2024-01-01', TIME '12:00:00', TIMESTAMP '2024-01-01 00:00:00', "
                      "INTERVAL '1' DAY, INTERVAL -'1-2' YEAR TO MONTH, 1.5, 1e3, FALSE, NULL"),
            "SELECT DATE '2024-01-01', TIME '12:00:00', TIMESTAMP '2024-01-01 00:00:00', INTERVAL "
            "'1' DAY, INTERVAL -'1-2' YEAR TO MONTH, 1.5, 1e3, FALSE, NULL");
  EXPECT_EQ(Canonical("SELECT a = b = c, (a = b) IS NULL, a + 1 > b, -a * b, upper(lower(s))"),
            "SELECT `a` = `b` = `c`, `a` = `b` IS NULL, `a` + 1 > `b`, -`a` * `b`, "
            "upper(lower(`s`))");
  EXPECT_EQ(Canonical("SELECT (SELECT max(x) FROM s) FROM t WHERE x IN (SELECT y FROM u)"),
            "SELECT (SELECT max(`x`) FROM `s`) FROM `t` WHERE `x` IN (SELECT `y` FROM `u`)");
  EXPECT_EQ(Canonical("SELECT 1 FROM t WHERE exists (select 1 from u) AND NOT EXISTS (VALUES (1))"),
            "SELECT 1 FROM `t` WHERE EXISTS (SELECT 1 FROM `u`) AND NOT EXISTS (VALUES (1))");
  // A function named exists stays a call.
  EXPECT_EQ(Canonical("SELECT exists(a) FROM t"), "SELECT exists(`a`) FROM `t`");
  EXPECT_EQ(Canonical("CREATE TABLE t (a INTERVAL DAY(2) TO SECOND(3), b INTERVAL month)"),
            "CREATE TABLE `t` (`a` INTERVAL DAY(2) TO SECOND(3), `b` INTERVAL MONTH)");
}

TEST(ParserTest, NestedAccessAndColumnAliases) {
  EXPECT_EQ(Canonical("SELECT summary['added-records'], a[1].f, (r).f, m['k'].x.y, partition.data "
                      "FROM t$snapshots"),
            "SELECT `summary`['added-records'], `a`[1].`f`, (`r`).`f`, `m`['k'].`x`.`y`, "
            "`partition`.`data` FROM `t$snapshots`");
  EXPECT_EQ(Canonical("SELECT x FROM (VALUES (1, 2)) AS v(x, y), t AS u (a)"),
            "SELECT `x` FROM (VALUES (1, 2)) AS `v`(`x`, `y`), `t` AS `u`(`a`)");
  EXPECT_EQ(ErrorOf("SELECT a[1 FROM t"),
            "line 1, column 12: expected ']' to close the subscript, found 'FROM'");
}

TEST(ParserTest, CallExplainHelpQuit) {
  EXPECT_EQ(Canonical("CALL system.rewrite_data_files(table => 'db.t', "
                      "options => 'target-file-size-bytes=1048576')"),
            "CALL `system`.`rewrite_data_files`(`table` => 'db.t', `options` => "
            "'target-file-size-bytes=1048576')");
  EXPECT_EQ(Canonical("CALL cat.system.rollback_to_snapshot('db.t', 123)"),
            "CALL `cat`.`system`.`rollback_to_snapshot`('db.t', 123)");
  EXPECT_EQ(Canonical("CALL system.expire_snapshots()"), "CALL `system`.`expire_snapshots`()");
  EXPECT_EQ(Canonical("EXPLAIN PLAN FOR SELECT 1"), "EXPLAIN SELECT 1");
  EXPECT_EQ(Canonical("explain insert into t values (1)"), "EXPLAIN INSERT INTO `t` VALUES (1)");
  EXPECT_EQ(Canonical("help"), "HELP");
  EXPECT_EQ(Canonical("QUIT;"), "QUIT");
  EXPECT_EQ(Canonical("exit"), "QUIT");
}

TEST(ParserTest, OverClauses) {
  EXPECT_EQ(Canonical("SELECT row_number() over (partition by k, upper(s) order by ts desc nulls "
                      "last) AS rn FROM t"),
            "SELECT row_number() OVER (PARTITION BY `k`, upper(`s`) ORDER BY `ts` DESC NULLS "
            "LAST) AS `rn` FROM `t`");
  EXPECT_EQ(Canonical("SELECT sum(v) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING "
                      "AND CURRENT ROW), count(*) OVER (ROWS 2 PRECEDING), RANK() OVER () FROM t"),
            "SELECT sum(`v`) OVER (ORDER BY `ts` ASC RANGE BETWEEN INTERVAL '1' HOUR PRECEDING "
            "AND CURRENT ROW), count(*) OVER (ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), RANK() "
            "OVER () FROM `t`");
  EXPECT_EQ(
      Canonical("SELECT max(v) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND 1 FOLLOWING) FROM t"),
      "SELECT max(`v`) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND 1 FOLLOWING) FROM `t`");
  EXPECT_EQ(ErrorOf("SELECT rank() OVER (ORDER BY ts ROWS 2) FROM t"),
            "line 1, column 39: expected PRECEDING or FOLLOWING after a window frame offset, found "
            "')'");
  EXPECT_EQ(ErrorOf("SELECT rank() OVER ts FROM t"),
            "line 1, column 20: expected '(' after OVER, found 'ts'");
}

TEST(ParserTest, ErrorsNameLineColumnExpectedAndFound) {
  EXPECT_EQ(ErrorOf("CREATE TABLE t (\n  a INT,\n  b STRING PARTITIONED BY (a)"),
            "line 3, column 12: expected ')' after column list, found 'PARTITIONED'");
  EXPECT_EQ(
      ErrorOf("SELEC * FROM t"),
      "line 1, column 1: expected a statement (CREATE, DROP, ALTER, USE, SHOW, DESCRIBE, SET, "
      "RESET, INSERT, SELECT, VALUES, CALL, EXPLAIN, STOP JOB, HELP, QUIT), found 'SELEC'");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a INTEGR)"), "line 1, column 19: unknown type 'INTEGR'");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a DECIMAL(10, x))"),
            "line 1, column 31: expected integer in DECIMAL(...), found 'x'");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a INT) PARTITIONED BY (bucket(a, 16))"),
            "line 1, column 47: expected bucket count in bucket(, found 'a'");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a INT) PARTITIONED BY (identity(a))"),
            "line 1, column 40: unknown partition transform 'identity' (expected bucket, truncate, "
            "years, months, days or hours)");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a INT) PARTITIONED BY (bucket(0, a))"),
            "line 1, column 40: bucket count must be between 1 and 2147483647, got 0");
  EXPECT_EQ(ErrorOf("CREATE TABLE t"),
            "line 1, column 14: CREATE TABLE needs a column list, LIKE or AS SELECT");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a INT, PRIMARY KEY (a))"),
            "line 1, column 39: expected NOT ENFORCED after PRIMARY KEY (Flink does not enforce "
            "keys), found ')'");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a INT, b AS a + 1)"),
            "line 1, column 26: computed columns are not supported by floe's Iceberg tables");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts, WATERMARK FOR ts "
                    "AS ts)"),
            "line 1, column 58: more than one WATERMARK");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts ts)"),
            "line 1, column 51: expected AS after WATERMARK FOR column, found 'ts'");
  EXPECT_EQ(ErrorOf("CREATE CATALOG c WITH ('type'=iceberg)"),
            "line 1, column 31: expected option value string for option 'type', found 'iceberg'");
  EXPECT_EQ(ErrorOf("SELECT a FROM t WHERE"),
            "line 1, column 22: expected an expression, found end of input");
  EXPECT_EQ(ErrorOf("SELECT a FROM t /*+ INDEX(t) */"),
            "line 1, column 21: expected OPTIONS in hint (floe knows the OPTIONS hint), found "
            "'INDEX'");
  EXPECT_EQ(ErrorOf("SELECT 1 2"), "line 1, column 10: unexpected '2' after end of statement");
  EXPECT_EQ(ErrorOf("SELECT 'abc"), "line 1, column 8: unterminated string literal");
  EXPECT_EQ(ErrorOf("INSERT OVERWRITE t PARTITION (a = b) SELECT 1"),
            "line 1, column 35: the value of partition column 'a' must be a literal");
  EXPECT_EQ(ErrorOf("SET = x"), "line 1, column 5: expected option key after SET, found '='");
  EXPECT_EQ(ErrorOf("DROP FUNCTION f"),
            "line 1, column 6: expected CATALOG, DATABASE, TABLE or [TEMPORARY] VIEW after DROP, "
            "found 'FUNCTION'");
  EXPECT_EQ(ErrorOf("DROP TEMPORARY TABLE t"),
            "line 1, column 16: expected VIEW after DROP TEMPORARY, found 'TABLE'");
  EXPECT_EQ(ErrorOf("SHOW TABLES NOT 'x'"),
            "line 1, column 17: expected LIKE or ILIKE after NOT, found ''x''");
  EXPECT_EQ(ErrorOf("SELECT a FROM select"),
            "line 1, column 15: expected table name, found 'select'");
}

TEST(ParserTest, DeepNestingIsAnErrorNotACrash) {
  std::string deep = "SELECT " + std::string(5000, '(') + "1" + std::string(5000, ')');
  EXPECT_NE(ErrorOf(deep).find("nested deeper than"), std::string::npos);
  std::string minus = "SELECT ";
  for (int i = 0; i < 5000; ++i) minus += "- ";
  minus += "1";
  EXPECT_NE(ErrorOf(minus).find("nested deeper than"), std::string::npos);
  std::string nots = "SELECT ";
  for (int i = 0; i < 5000; ++i) nots += "NOT ";
  EXPECT_NE(ErrorOf(nots + "a").find("nested deeper than"), std::string::npos);
  std::string explains;
  for (int i = 0; i < 5000; ++i) explains += "EXPLAIN ";
  EXPECT_EQ(ErrorOf(explains + "SELECT 1"), "line 1, column 9: EXPLAIN cannot explain an EXPLAIN");
  EXPECT_NE(ErrorOf("SELECT * FROM " + std::string(5000, '(')).find("nested deeper than"),
            std::string::npos);
  EXPECT_NE(ErrorOf(std::string(5000, '(')).find("nested deeper than"), std::string::npos);
  std::string type = "CREATE TABLE t (a ";
  for (int i = 0; i < 5000; ++i) type += "ARRAY<";
  EXPECT_NE(ErrorOf(type).find("nested deeper than"), std::string::npos);
}

TEST(ScriptTest, SplitsOnSemicolonsOutsideStringsAndComments) {
  constexpr std::string_view kScript =
      "SET 'a' = ';';\n"
      "-- a comment; not a split\n"
      "SELECT `x;y` /* ; */ FROM t;;\n"
      "  INSERT INTO t\n  VALUES (1);";
  auto statements = ParseScript(kScript);
  ASSERT_TRUE(statements.has_value()) << statements.error().ToString();
  ASSERT_EQ(statements->size(), 3u);
  EXPECT_EQ(PrintStatement((*statements)[0]), "SET 'a' = ';'");
  EXPECT_EQ(PrintStatement((*statements)[1]), "SELECT `x;y` FROM `t`");
  EXPECT_EQ((*statements)[1].position.line, 3);
  EXPECT_EQ((*statements)[2].position.line, 4);
  EXPECT_EQ((*statements)[2].position.column, 3);

  auto split = SplitStatements(kScript);
  ASSERT_TRUE(split.has_value());
  ASSERT_EQ(split->pieces.size(), 3u);
  EXPECT_EQ(split->pieces[1].text, "SELECT `x;y` /* ; */ FROM t");
  EXPECT_EQ(split->pieces[2].text, "INSERT INTO t\n  VALUES (1)");
  EXPECT_TRUE(split->complete);

  split = SplitStatements("SELECT 1; SELECT\n 2 -- more\n");
  ASSERT_TRUE(split.has_value());
  ASSERT_EQ(split->pieces.size(), 2u);
  EXPECT_FALSE(split->complete);
  EXPECT_EQ(split->pieces[1].text, "SELECT\n 2");
  split = SplitStatements("SELECT 1; -- trailing comment\n");
  ASSERT_TRUE(split.has_value());
  EXPECT_TRUE(split->complete);
}

TEST(ScriptTest, ErrorsKeepTheScriptLine) {
  auto statements = ParseScript("SELECT 1;\n\nCREATE TABLE t (a INT,\n  b FOO);");
  ASSERT_FALSE(statements.has_value());
  EXPECT_EQ(statements.error().message(), "line 4, column 5: unknown type 'FOO'");
  statements = ParseScript("SELECT 1;\nSELECT (1;\nSELECT 2;");
  ASSERT_FALSE(statements.has_value());
  EXPECT_EQ(statements.error().message(),
            "line 2, column 10: expected ')' to close the parenthesis, found ';'");
}

TEST(ParserTest, TypesAndExpressionsAlone) {
  auto type = ParseDataType("map<varchar(3), array<decimal(9,2) not null>> not null");
  ASSERT_TRUE(type.has_value()) << type.error().ToString();
  EXPECT_EQ(type->kind, SqlTypeKind::kMap);
  EXPECT_TRUE(type->not_null);
  EXPECT_EQ(type->elements[1].elements[0].params, (std::vector<int64_t>{9, 2}));
  EXPECT_EQ(PrintType(*type), "MAP<VARCHAR(3), ARRAY<DECIMAL(9, 2) NOT NULL>> NOT NULL");
  auto expr = ParseExpression("a.b.c + 1");
  ASSERT_TRUE(expr.has_value());
  EXPECT_EQ((*expr)->args[0]->name, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_FALSE(ParseExpression("1 +").has_value());
}

// IS [NOT] NAN, floe's extension for Iceberg's is_nan: a predicate like IS NULL.
TEST(ParserTest, IsNan) {
  EXPECT_EQ(Canonical("SELECT d is nan, d IS NOT NaN OR NOT e IS NAN, (d + 1) IS NAN FROM t"),
            "SELECT `d` IS NAN, `d` IS NOT NAN OR NOT `e` IS NAN, `d` + 1 IS NAN FROM `t`");
  auto expr = ParseExpression("`x y` is not nan");
  ASSERT_TRUE(expr.has_value()) << expr.error().ToString();
  EXPECT_EQ((*expr)->kind, ExprKind::kIsNan);
  EXPECT_TRUE((*expr)->negated);
  EXPECT_EQ((*expr)->args[0]->name, (std::vector<std::string>{"x y"}));
  EXPECT_EQ(ErrorOf("SELECT d IS NANA FROM t"),
            "line 1, column 13: expected NULL, TRUE, FALSE, UNKNOWN, DISTINCT FROM or NAN after "
            "IS, found 'NANA'");
}

TEST(ParserTest, IsTruthAndDistinctFrom) {
  EXPECT_EQ(Canonical("SELECT a is true, b IS NOT false, c is unknown, a = b IS NOT TRUE FROM t"),
            "SELECT `a` IS TRUE, `b` IS NOT FALSE, `c` IS UNKNOWN, `a` = `b` IS NOT TRUE FROM `t`");
  EXPECT_EQ(Canonical("SELECT a IS DISTINCT FROM b + 1, a is not distinct from NULL FROM t"),
            "SELECT `a` IS DISTINCT FROM `b` + 1, `a` IS NOT DISTINCT FROM NULL FROM `t`");
  EXPECT_EQ(Canonical("SELECT LEFT(s, 2), RIGHT(s, 1) FROM t LEFT JOIN u ON TRUE"),
            "SELECT `LEFT`(`s`, 2), `RIGHT`(`s`, 1) FROM `t` LEFT JOIN `u` ON TRUE");
  EXPECT_EQ(ErrorOf("SELECT a IS DISTINCT b FROM t"),
            "line 1, column 22: expected FROM after IS DISTINCT, found 'b'");
}

}  // namespace
}  // namespace floe::sql

namespace floe::sql {
namespace {

// Every prefix of, and every one-byte deletion from, a few rich statements: each parses or fails
// with a positioned error, and whatever parses prints to text that parses back to the same print.
TEST(ParserTest, PrefixesAndDeletionsParseOrFailCleanly) {
  constexpr std::string_view kStatements[] = {
      "CREATE TABLE IF NOT EXISTS c.db.t (id BIGINT NOT NULL COMMENT 'i''d', m MAP<STRING, "
      "ARRAY<ROW<a INT, b DECIMAL(9, 2)>>>, PRIMARY KEY (id) NOT ENFORCED) COMMENT 't' "
      "PARTITIONED BY (bucket(16, id), days(ts)) WITH ('format-version'='2')",
      "INSERT OVERWRITE t /*+ OPTIONS('a'='b') */ PARTITION (d = DATE '2024-01-01') SELECT a, "
      "CAST(b AS VARCHAR(3)) FROM s WHERE a BETWEEN -1 AND 2 OR NOT c IN (1, 2)",
      "SELECT a, count(*), CASE WHEN a IS NULL THEN -1 ELSE a END AS x FROM t$snapshots s JOIN u "
      "ON s.a = u.a WHERE b LIKE 'x%' GROUP BY a HAVING count(*) > 1 UNION ALL VALUES (1, 2, 3) "
      "ORDER BY 1 DESC LIMIT 5",
      "ALTER TABLE t ADD (x INT FIRST, y STRING AFTER x, PRIMARY KEY (x) NOT ENFORCED)",
      "CALL system.rewrite_data_files(table => 'db.t', INTERVAL -'1' DAY + 2.5e3)",
      "WITH a (x) AS (SELECT 1 INTERSECT ALL SELECT 2) SELECT x FROM a EXCEPT SELECT 3 UNION "
      "SELECT 4",
  };
  int parsed = 0;
  auto check = [&](std::string_view sql) {
    auto statement = ParseStatement(sql);
    if (!statement) {
      EXPECT_TRUE(statement.error().message().starts_with("line ")) << sql;
      return;
    }
    ++parsed;
    std::string printed = PrintStatement(*statement);
    auto again = ParseStatement(printed);
    ASSERT_TRUE(again.has_value()) << sql << "\n" << printed << "\n" << again.error().message();
    EXPECT_EQ(PrintStatement(*again), printed) << sql;
  };
  for (std::string_view sql : kStatements) {
    for (std::size_t i = 0; i <= sql.size(); ++i) {
      check(sql.substr(0, i));
      std::string deleted(sql);
      if (i < sql.size()) {
        deleted.erase(i, 1);
        check(deleted);
      }
    }
  }
  EXPECT_GT(parsed, 100);
}

}  // namespace
}  // namespace floe::sql
