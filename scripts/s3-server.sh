#!/usr/bin/env bash
# A local S3-compatible server for the object-storage tests: a single-node Ceph cluster (one
# monitor, one OSD keeping its data in memory, no manager, auth none, pool size 1) with a RADOS
# Gateway on a free loopback port, one S3 user and one bucket (doc/object_storage.md).
#
#   scripts/s3-server.sh start DIR   starts it with its state under DIR and prints one line
#       endpoint=http://127.0.0.1:PORT access_key=... secret_key=... bucket=...
#     (also written to DIR/env, and as shell assignments of the SHOAL_S3_* variables the tests
#     read to DIR/env.sh)
#   scripts/s3-server.sh stop DIR    stops the daemons started from DIR and removes their state
#
# Everything (config, pid files, sockets, logs, data) stays under DIR; nothing touches
# /etc/ceph or /var/lib/ceph, and stop ends only the processes whose pid files DIR holds.
set -euo pipefail

PY=/usr/bin/python3  # the `ceph` CLI needs Debian's Python modules
ACCESS_KEY=shoal-test-access
SECRET_KEY=shoal-test-secret-0123456789
BUCKET=shoal-test

die() { echo "s3-server: $*" >&2; exit 1; }

free_port() {
  "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# Stops the daemons whose pid files are under $1/run: SIGTERM to all, up to 2 s for them to
# exit, then SIGKILL to any left (the cluster's data is in memory and thrown away anyway; radosgw
# alone takes ~6 s to wind down).
stop_daemons() {
  local dir=$1 f pid i pids=()
  for f in "$dir"/run/client.rgw.a.pid "$dir"/run/osd.0.pid "$dir"/run/mon.a.pid; do
    [ -f "$f" ] || continue
    pid=$(cat "$f" 2>/dev/null || true)
    [[ "$pid" =~ ^[0-9]+$ ]] || continue
    kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
  done
  for i in $(seq 20); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && return 0
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
}

start() {
  local dir=$1
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  [ -f "$dir/run/mon.a.pid" ] && die "$dir already holds a running server (stop it first)"
  for tool in ceph-mon ceph-osd radosgw radosgw-admin ceph-authtool monmaptool ceph curl; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool not found: run scripts/install-deps.sh"
  done
  rm -rf "$dir"/{mon,osd,run,log,rgw,ceph.conf,keyring,monmap,env,env.sh}
  mkdir -p "$dir"/{mon/a,osd/0,run,log,rgw}
  local mon_port rgw_port fsid osd_uuid conf
  mon_port=$(free_port)
  rgw_port=$(free_port)
  fsid=$(cat /proc/sys/kernel/random/uuid)
  osd_uuid=$(cat /proc/sys/kernel/random/uuid)
  conf="$dir/ceph.conf"
  cat >"$conf" <<EOF
[global]
fsid = $fsid
mon_host = 127.0.0.1:$mon_port
mon_initial_members = a
auth_cluster_required = none
auth_service_required = none
auth_client_required = none
keyring = $dir/keyring
osd_pool_default_size = 1
osd_pool_default_min_size = 1
osd_pool_default_pg_num = 8
osd_pool_default_pgp_num = 8
osd_crush_chooseleaf_type = 0
mon_allow_pool_size_one = true
mon_max_pg_per_osd = 1000
osd_objectstore = memstore
memstore_device_bytes = 2147483648
ms_bind_ipv6 = false
run_dir = $dir/run
admin_socket = $dir/run/\$name.asok
pid_file = $dir/run/\$name.pid
log_file = $dir/log/\$name.log
mon_data = $dir/mon/\$id
osd_data = $dir/osd/\$id
rgw_data = $dir/rgw
[client.rgw.a]
# tcp_nodelay: without it each GET answer waits ~40 ms for a delayed ACK (Nagle).
# radosgw asks for a secure (encrypted) monitor connection, which auth none cannot give: crc.
ms_mon_client_mode = crc
rgw_frontends = beast endpoint=127.0.0.1:$rgw_port tcp_nodelay=1
EOF
  ceph-authtool --create-keyring "$dir/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  monmaptool --create --fsid "$fsid" --add a "127.0.0.1:$mon_port" "$dir/monmap" >/dev/null
  ceph-mon -c "$conf" -i a --mkfs --monmap "$dir/monmap" --keyring "$dir/keyring" >/dev/null 2>&1 ||
    die "ceph-mon --mkfs failed (see $dir/log)"
  timeout 20 ceph-mon -c "$conf" -i a || die "ceph-mon did not start (see $dir/log/mon.a.log)"
  local id
  id=$(timeout 20 "$PY" /usr/bin/ceph -c "$conf" --connect-timeout 15 osd new "$osd_uuid" 2>/dev/null) ||
    { stop_daemons "$dir"; die "could not register the OSD with the monitor (see $dir/log)"; }
  [ "$id" = 0 ] || { stop_daemons "$dir"; die "unexpected OSD id '$id'"; }
  ceph-osd -c "$conf" -i 0 --mkfs --osd-uuid "$osd_uuid" >/dev/null 2>&1 ||
    { stop_daemons "$dir"; die "ceph-osd --mkfs failed (see $dir/log)"; }
  timeout 20 ceph-osd -c "$conf" -i 0 >/dev/null 2>&1 || { stop_daemons "$dir"; die "ceph-osd did not start"; }
  # radosgw returns once it has reached the monitor; the timeout keeps a failure from hanging.
  timeout 30 radosgw -c "$conf" -n client.rgw.a >/dev/null 2>&1 || { stop_daemons "$dir"; die "radosgw did not start"; }
  local endpoint="http://127.0.0.1:$rgw_port" i ok=0
  for i in $(seq 300); do  # the gateway answers once its pools exist
    if curl -s -o /dev/null -m 2 "$endpoint/"; then ok=1; break; fi
    sleep 0.1
  done
  [ "$ok" = 1 ] || { stop_daemons "$dir"; die "radosgw did not answer on $endpoint within 30 s (see $dir/log)"; }
  timeout 30 radosgw-admin -c "$conf" -n client.admin user create --uid shoal --display-name shoal \
    --access-key "$ACCESS_KEY" --secret-key "$SECRET_KEY" >/dev/null 2>"$dir/log/user-create.err" ||
    { stop_daemons "$dir"; die "radosgw-admin user create failed (see $dir/log/user-create.err)"; }
  local code
  code=$(curl -s -o "$dir/log/bucket-create.out" -w '%{http_code}' -m 20 -X PUT \
    --aws-sigv4 "aws:amz:us-east-1:s3" --user "$ACCESS_KEY:$SECRET_KEY" \
    -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" "$endpoint/$BUCKET")
  [ "$code" = 200 ] || { stop_daemons "$dir"; die "creating bucket $BUCKET answered HTTP $code"; }
  local line="endpoint=$endpoint access_key=$ACCESS_KEY secret_key=$SECRET_KEY bucket=$BUCKET"
  echo "$line" >"$dir/env"
  cat >"$dir/env.sh" <<EOF
export SHOAL_S3_ENDPOINT=$endpoint
export SHOAL_S3_ACCESS_KEY=$ACCESS_KEY
export SHOAL_S3_SECRET_KEY=$SECRET_KEY
export SHOAL_S3_BUCKET=$BUCKET
EOF
  echo "$line"
}

stop() {
  local dir=$1
  [ -d "$dir" ] || return 0
  dir=$(cd "$dir" && pwd)
  stop_daemons "$dir"
  rm -rf "$dir"/{mon,osd,run,log,rgw,ceph.conf,keyring,monmap,env,env.sh}
}

case "${1:-}" in
  start) [ $# -eq 2 ] || die "usage: $0 start DIR"; start "$2" ;;
  stop) [ $# -eq 2 ] || die "usage: $0 stop DIR"; stop "$2" ;;
  *) die "usage: $0 start DIR | stop DIR" ;;
esac
