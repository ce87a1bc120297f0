CREATE TABLE all_types (
  c_boolean BOOLEAN,
  c_tinyint TINYINT,
  c_smallint SMALLINT,
  c_integer INTEGER,
  c_int INT,
  c_bigint BIGINT,
  c_float FLOAT,
  c_double DOUBLE,
  c_char CHAR(3),
  c_varchar VARCHAR(20),
  c_string STRING,
  c_binary BINARY(16),
  c_varbinary VARBINARY(20),
  c_bytes BYTES,
  c_decimal DECIMAL(38, 10),
  c_date DATE,
  c_time TIME,
  c_timestamp TIMESTAMP,
  c_timestamp3 TIMESTAMP(3),
  c_timestamp_ltz TIMESTAMP_LTZ,
  c_timestamp_ltz3 TIMESTAMP(3) WITH LOCAL TIME ZONE,
  c_array ARRAY<BIGINT>,
  c_map MAP<STRING, DOUBLE>,
  c_multiset MULTISET<STRING>,
  c_row ROW<x INT, y STRING NOT NULL>
);
DESCRIBE all_types;
CREATE TABLE required_types (a INT NOT NULL, b ARRAY<STRING NOT NULL> NOT NULL, c MAP<INT, ROW<z DATE NOT NULL>>);
DESCRIBE required_types;
CREATE TABLE bad (id INT, tz TIMESTAMP WITH TIME ZONE);
CREATE TABLE bad (id INT, n NULL);
CREATE TABLE bad (id INT, r ROW<v INT, w TIMESTAMP(3) WITH TIME ZONE>);
CREATE TABLE bad (id INT, r RAW('java.lang.String', 'AAA'));
CREATE TABLE bad (id INT, i INTERVAL DAY);
CREATE TABLE bad (id INT, i INTERVAL YEAR(2) TO MONTH);
CREATE TABLE bad (id INT, s SYMBOL);
CREATE TABLE bad (d DECIMAL(39, 2));
SHOW TABLES;
