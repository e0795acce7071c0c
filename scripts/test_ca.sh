# Sourced by the scripts that put PostgreSQL and Redis on TLS (cluster.sh --tls,
# store_copy_bench.sh): make_test_ca DIR NAME DAYS makes, in DIR, a CA of the script's own
# (ca.pem, ca.key) and a certificate it signs for 127.0.0.1 (server.pem, server.key), with
# openssl and P-256 keys (quick to make). Its output goes to DIR/openssl.log.
make_test_ca() {
  local dir=$1 name=$2 days=$3
  (
    cd "$dir"
    printf '%s\n' '[req]' 'distinguished_name = dn' 'x509_extensions = ca' 'prompt = no' \
      '[dn]' "CN = $name" '[ca]' 'basicConstraints = critical, CA:TRUE' \
      'keyUsage = critical, keyCertSign, cRLSign' >ca.cnf
    printf '%s\n' 'basicConstraints = CA:FALSE' 'extendedKeyUsage = serverAuth' \
      'subjectAltName = IP:127.0.0.1' >server.ext
    ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
    openssl req -x509 -days "$days" -config ca.cnf "${ec[@]}" -keyout ca.key -out ca.pem
    openssl req -subj /CN=127.0.0.1 "${ec[@]}" -keyout server.key -out server.csr
    openssl x509 -req -days "$days" -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
      -extfile server.ext -out server.pem
  ) >"$dir/openssl.log" 2>&1
}
