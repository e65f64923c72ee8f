#!/usr/bin/env bash
# A three-node MariaDB Galera cluster on this machine, for the cluster tests and the
# cluster benchmark: separate data directories and ports on 127.0.0.1, node 1
# bootstrapped with --wsrep-new-cluster, nodes 2 and 3 joining it (state transfer by
# rsync). Needs Debian's mariadb-server, galera-4 and rsync.
#
#   galera.sh check              exit 0 when everything needed is installed, 3 (with the reason) otherwise
#   galera.sh start              start all three nodes; returns once each is Synced
#   galera.sh stop               stop every node and remove the directory
#   galera.sh start-node N       start node N again; returns once it rejoined and every running node is Synced
#   galera.sh stop-node N        stop node N cleanly
#   galera.sh kill-node N        kill -9 node N
#   galera.sh status             each node's state (Synced, Donor/Desynced, Joined, down)
#
# GALERA_DIR (default /tmp/svc-galera) holds the nodes; GALERA_PORT (default 23306) is
# node 1's SQL port: node N listens on GALERA_PORT+N-1 for SQL, +10 for group
# communication, +20 for incremental and +30 for full state transfers. The user
# root@127.0.0.1 has no password.
set -euo pipefail

DIR=${GALERA_DIR:-/tmp/svc-galera}
PORT=${GALERA_PORT:-23306}
NODES=3
# As root the nodes run as mysql: the rsync daemon of a state transfer would otherwise write as nobody.
RUN_AS=$(id -un)
[ "$RUN_AS" != root ] || RUN_AS=mysql
WAIT_SECONDS=${GALERA_WAIT_SECONDS:-90}
PROVIDER=${GALERA_PROVIDER:-/usr/lib/galera/libgalera_smm.so}
MARIADBD=${GALERA_MARIADBD:-/usr/sbin/mariadbd}

sql_port() { echo $((PORT + $1 - 1)); }
gcomm_port() { echo $((PORT + 10 + $1 - 1)); }
node_dir() { echo "$DIR/node$1"; }
pid_of() { cat "$(node_dir "$1")/node.pid" 2>/dev/null || true; }
running() { local pid; pid=$(pid_of "$1"); [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; }
query() { mariadb --protocol=socket -S "$(node_dir "$1")/mariadbd.sock" -uroot -N -B -e "$2" 2>/dev/null; }
state() { query "$1" "SHOW STATUS LIKE 'wsrep_local_state_comment'" | cut -f2; }

check() {
  local missing=()
  [ -x "$MARIADBD" ] || missing+=("$MARIADBD (apt-get install mariadb-server)")
  [ -f "$PROVIDER" ] || missing+=("$PROVIDER (apt-get install galera-4)")
  command -v rsync >/dev/null || missing+=("rsync (apt-get install rsync)")
  command -v mariadb-install-db >/dev/null || missing+=("mariadb-install-db (apt-get install mariadb-server)")
  if [ ${#missing[@]} -gt 0 ]; then
    echo "Galera test cluster unavailable, missing: ${missing[*]}" >&2
    exit 3
  fi
}

write_config() {
  local n=$1 dir members=""
  dir=$(node_dir "$n")
  for m in $(seq 1 $NODES); do members+="${members:+,}127.0.0.1:$(gcomm_port "$m")"; done
  mkdir -p "$dir/data"
  cat >"$dir/my.cnf" <<EOF
[mysqld]
user=$RUN_AS
datadir=$dir/data
socket=$dir/mariadbd.sock
pid-file=$dir/mariadbd.pid
log-error=$dir/error.log
port=$(sql_port "$n")
bind-address=127.0.0.1
skip-name-resolve
max_connections=300
innodb_buffer_pool_size=48M
innodb_log_file_size=48M
innodb_flush_log_at_trx_commit=2
performance_schema=OFF
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
wsrep_on=ON
wsrep_provider=$PROVIDER
wsrep_cluster_name=svc-test
wsrep_cluster_address=gcomm://$members
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1:$(gcomm_port "$n")
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$((PORT + 30 + n - 1))
wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:$(gcomm_port "$n");ist.recv_addr=127.0.0.1:$((PORT + 20 + n - 1));gcache.size=64M;evs.keepalive_period=PT1S;evs.suspect_timeout=PT3S;evs.inactive_timeout=PT6S;evs.install_timeout=PT6S;pc.wait_prim_timeout=PT10S"
wsrep_slave_threads=2
EOF
}

wait_synced() {
  local n=$1 until=$((SECONDS + WAIT_SECONDS))
  while [ $SECONDS -lt $until ]; do
    if ! running "$n"; then
      echo "node $n stopped while starting; see $(node_dir "$n")/error.log:" >&2
      tail -n 20 "$(node_dir "$n")/error.log" >&2 || true
      exit 1
    fi
    [ "$(state "$n" || true)" = "Synced" ] && return 0
    sleep 0.3
  done
  echo "node $n was not Synced within ${WAIT_SECONDS}s; see $(node_dir "$n")/error.log" >&2
  exit 1
}

start_node() {
  local n=$1 dir extra=()
  dir=$(node_dir "$n")
  if running "$n"; then return 0; fi
  [ -f "$dir/my.cnf" ] || write_config "$n"
  if [ "${2:-}" = bootstrap ]; then extra+=(--wsrep-new-cluster); fi
  "$MARIADBD" --defaults-file="$dir/my.cnf" "${extra[@]}" </dev/null >/dev/null 2>&1 &
  echo $! >"$dir/node.pid"
  wait_synced "$n"
  # The node that gave it its state (the donor) catches up before it serves again.
  for m in $(seq 1 $NODES); do
    if [ "$m" != "$n" ] && running "$m"; then wait_synced "$m"; fi
  done
}

stop_node() {
  local n=$1 pid until
  pid=$(pid_of "$n")
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null || return 0
  until=$((SECONDS + WAIT_SECONDS))
  while kill -0 "$pid" 2>/dev/null; do
    if [ $SECONDS -ge $until ]; then kill -9 "$pid" 2>/dev/null || true; break; fi
    sleep 0.2
  done
}

kill_node() {
  local pid
  pid=$(pid_of "$1")
  [ -n "$pid" ] || return 0
  kill -9 "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}

start() {
  check
  for n in $(seq 1 $NODES); do
    if running "$n"; then echo "a test cluster already runs in $DIR; stop it first" >&2; exit 1; fi
  done
  rm -rf "$DIR"
  for n in $(seq 1 $NODES); do write_config "$n"; done
  [ "$RUN_AS" = "$(id -un)" ] || chown -R "$RUN_AS" "$DIR"
  mariadb-install-db --defaults-file="$(node_dir 1)/my.cnf" --auth-root-authentication-method=normal --skip-test-db >"$DIR/install.log" 2>&1 ||
    { cat "$DIR/install.log" >&2; exit 1; }
  start_node 1 bootstrap
  query 1 "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'; GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION"
  for n in $(seq 2 $NODES); do start_node "$n"; done
  echo "Galera cluster up: 127.0.0.1:$(sql_port 1),127.0.0.1:$(sql_port 2),127.0.0.1:$(sql_port 3)"
}

stop() {
  for n in $(seq $NODES -1 1); do stop_node "$n"; done
  rm -rf "$DIR"
}

status() {
  for n in $(seq 1 $NODES); do
    if running "$n"; then echo "node $n 127.0.0.1:$(sql_port "$n") $(state "$n" || echo starting)"; else echo "node $n 127.0.0.1:$(sql_port "$n") down"; fi
  done
}

node_arg() {
  case "${1:-}" in
    [1-3]) ;;
    *) echo "name a node: 1, 2 or 3" >&2; exit 2 ;;
  esac
}

case "${1:-}" in
  check) check ;;
  start) start ;;
  stop) stop ;;
  status) status ;;
  start-node) node_arg "${2:-}"; start_node "$2" ;;
  stop-node) node_arg "${2:-}"; stop_node "$2" ;;
  kill-node) node_arg "${2:-}"; kill_node "$2" ;;
  *) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
