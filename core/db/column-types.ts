import { DataTypes } from 'sequelize';
import type { Dialect } from './database';

/**
 * Column types spelled once per dialect: MySQL gets unsigned and long-text
 * variants, SQLite the plain affinities it supports (without warnings).
 */
export function columnTypes(dialect: Dialect) {
  const mysql = dialect === 'mysql';
  return {
    /** Auto-increment primary key. */
    id: mysql ? DataTypes.BIGINT.UNSIGNED : DataTypes.INTEGER,
    /** Reference to an id column. */
    ref: mysql ? DataTypes.BIGINT.UNSIGNED : DataTypes.INTEGER,
    bigint: DataTypes.BIGINT,
    int: DataTypes.INTEGER,
    uint: mysql ? DataTypes.INTEGER.UNSIGNED : DataTypes.INTEGER,
    tinyint: mysql ? DataTypes.TINYINT : DataTypes.INTEGER,
    bool: DataTypes.BOOLEAN,
    string: (length = 255) => DataTypes.STRING(length),
    /** Text that groups and compares byte for byte, as SQLite's does: MySQL's default collation ignores case and accents. */
    exactString: (length = 255) => (mysql ? DataTypes.STRING(length).BINARY : DataTypes.STRING(length)),
    text: DataTypes.TEXT,
    longText: mysql ? DataTypes.TEXT('long') : DataTypes.TEXT,
    float: DataTypes.DOUBLE,
    decimal: (precision = 20, scale = 6) => DataTypes.DECIMAL(precision, scale),
    date: DataTypes.DATE,
  };
}

export type ColumnTypes = ReturnType<typeof columnTypes>;
