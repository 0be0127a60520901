package io.github.kubeevents.envtest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.credentials.AccessTokenAuthentication;
import okhttp3.Request;
import okhttp3.Response;

/**
 * A real, local kube-apiserver backed by a local etcd (the envtest convention: plain processes, no kubelet, no
 * controllers), for integration tests.
 *
 * <p>Both processes listen on free loopback ports; everything they write (etcd data, the apiserver's self-signed
 * serving certificate, the token file, the service-account key pair, and the {@code etcd.log} /
 * {@code kube-apiserver.log} files) lives in one temporary directory that {@link #close()} deletes.
 *
 * <p>Identities (static tokens, {@code --token-auth-file}):
 * <ul>
 *   <li>{@value #ADMIN_USER}, in group {@code system:masters}: may do anything ({@link #adminClient()}).</li>
 *   <li>{@value #RESTRICTED_USER}, no group: bound to ClusterRole {@value #RESTRICTED_ROLE}, which allows
 *       get/list/watch on events (core and events.k8s.io) and nodes, nothing else; creating an Event answers 403
 *       ({@link #restrictedClient()}).</li>
 * </ul>
 *
 * <p>Admission: the defaults minus {@code ServiceAccount} (no token controller runs). {@code NamespaceLifecycle}
 * stays on, so creating anything in a missing namespace answers 404.
 *
 * <p>Most tests use the one shared instance from {@link ControlPlaneExtension}. A test that needs its own (e.g. a
 * short {@code --event-ttl}) starts and closes one:
 * <pre>{@code
 * try (ControlPlane cp = ControlPlane.builder().eventTtl(Duration.ofSeconds(5)).start()) { ... }
 * }</pre>
 * {@link Builder#start()} skips the test (or fails it under {@code CI=true}) when no binaries are available, see
 * {@link EnvtestAssets}.
 */
public final class ControlPlane implements AutoCloseable {

    /** User name of the {@code system:masters} identity. */
    public static final String ADMIN_USER = "admin";
    /** User name of the read-only identity. */
    public static final String RESTRICTED_USER = "restricted";
    /** ClusterRole (and ClusterRoleBinding) granting {@value #RESTRICTED_USER} read access to events and nodes. */
    public static final String RESTRICTED_ROLE = "kubeevents-envtest-restricted";
    /** The {@code --event-ttl} used when the builder is not told otherwise. */
    public static final Duration DEFAULT_EVENT_TTL = Duration.ofHours(1);

    private static final String LOOPBACK = "127.0.0.1";
    private static final int LOG_TAIL_LINES = 40;

    private final Path assets;
    private final Duration eventTtl;
    private final Duration startupTimeout;
    private final List<String> extraApiServerArgs;

    private final Path tempDir;
    private final Path etcdDataDir;
    private final Path certDir;
    private final Path tokenFile;
    private final Path saPublicKey;
    private final Path saPrivateKey;
    private final Path etcdLog;
    private final Path apiServerLog;
    private final int etcdPort;
    private final int etcdPeerPort;
    private final int apiServerPort;
    private final String adminToken;
    private final String restrictedToken;
    private final Thread shutdownHook;

    private volatile Process etcd;
    private volatile Process apiServer;
    private volatile byte[] caCertificate;
    private volatile Duration startupTime;
    private volatile Duration lastApiServerStartupTime;
    private volatile boolean closed;

    /** A builder for a new, separate control plane. */
    public static Builder builder() {
        return new Builder();
    }

    /** Options of a new control plane. */
    public static final class Builder {
        private Path assets;
        private Duration eventTtl = DEFAULT_EVENT_TTL;
        private Duration startupTimeout = Duration.ofSeconds(90);
        private final List<String> extraApiServerArgs = new ArrayList<>();

        private Builder() {
        }

        /** Directory holding {@code kube-apiserver} and {@code etcd}; default: {@link EnvtestAssets}. */
        public Builder assetsDirectory(Path directory) {
            this.assets = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /** {@code --event-ttl}: how long the apiserver keeps an Event after its last write (default 1h). */
        public Builder eventTtl(Duration ttl) {
            if (ttl.isNegative() || ttl.isZero()) {
                throw new IllegalArgumentException("eventTtl must be positive: " + ttl);
            }
            this.eventTtl = ttl;
            return this;
        }

        /** How long etcd + kube-apiserver may take to become ready (default 90 s). */
        public Builder startupTimeout(Duration timeout) {
            this.startupTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** An extra kube-apiserver flag, e.g. {@code --max-requests-inflight=10}; later flags win. */
        public Builder apiServerArg(String flag) {
            this.extraApiServerArgs.add(Objects.requireNonNull(flag, "flag"));
            return this;
        }

        /**
         * Starts etcd and kube-apiserver and waits until the apiserver is ready. Without an explicit directory and
         * with no binaries found, this aborts (skips) the calling test, or throws under {@code CI=true}.
         *
         * @throws IllegalStateException when a process does not start or become ready in time (the message holds
         *                               the tail of its log)
         */
        public ControlPlane start() {
            Path dir = assets != null ? assets : EnvtestAssets.requireOrSkip();
            ControlPlane cp = new ControlPlane(dir, eventTtl, startupTimeout, List.copyOf(extraApiServerArgs));
            cp.startAll();
            return cp;
        }
    }

    private ControlPlane(Path assets, Duration eventTtl, Duration startupTimeout, List<String> extraApiServerArgs) {
        this.assets = assets;
        this.eventTtl = eventTtl;
        this.startupTimeout = startupTimeout;
        this.extraApiServerArgs = extraApiServerArgs;
        try {
            this.tempDir = Files.createTempDirectory("kube-events-envtest-");
            this.etcdDataDir = Files.createDirectory(tempDir.resolve("etcd-data"));
            this.certDir = Files.createDirectory(tempDir.resolve("certs"));
            this.tokenFile = tempDir.resolve("tokens.csv");
            this.saPublicKey = tempDir.resolve("sa.pub");
            this.saPrivateKey = tempDir.resolve("sa.key");
            this.etcdLog = tempDir.resolve("etcd.log");
            this.apiServerLog = tempDir.resolve("kube-apiserver.log");
            int[] ports = freeLoopbackPorts(3);
            this.etcdPort = ports[0];
            this.etcdPeerPort = ports[1];
            this.apiServerPort = ports[2];
            this.adminToken = randomToken();
            this.restrictedToken = randomToken();
            Files.writeString(tokenFile,
                    adminToken + "," + ADMIN_USER + ",uid-" + ADMIN_USER + ",\"system:masters\"\n"
                            + restrictedToken + "," + RESTRICTED_USER + ",uid-" + RESTRICTED_USER + "\n");
            writeServiceAccountKeys();
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare the envtest directory", e);
        }
        this.shutdownHook = new Thread(this::killAll, "envtest-control-plane-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    // ------------------------------------------------------------------------------------------------ public API

    /** A new client (new OkHttp client each call) for the {@code system:masters} user. */
    public ApiClient adminClient() {
        return client(adminToken);
    }

    /** A new client for user {@value #RESTRICTED_USER} (read events/nodes only). */
    public ApiClient restrictedClient() {
        return client(restrictedToken);
    }

    /**
     * A new client that sends {@code Authorization: Bearer <token>} ({@code null}: anonymous) and trusts the
     * apiserver's self-signed serving certificate. Each call builds a new {@link ApiClient} with its own
     * {@code OkHttpClient}, so a test may add interceptors to it.
     */
    public ApiClient client(String token) {
        ClientBuilder builder = new ClientBuilder()
                .setBasePath(baseUrl())
                .setVerifyingSsl(true)
                .setCertificateAuthority(caCertificate());
        if (token != null) {
            builder.setAuthentication(new AccessTokenAuthentication(token));
        }
        return builder.build();
    }

    /** Bearer token of the {@code system:masters} user. */
    public String adminToken() {
        return adminToken;
    }

    /** Bearer token of user {@value #RESTRICTED_USER}. */
    public String restrictedToken() {
        return restrictedToken;
    }

    /** {@code https://127.0.0.1:<port>}; the port stays the same across {@link #stopApiServer()}/{@link #startApiServer()}. */
    public String baseUrl() {
        return "https://" + LOOPBACK + ":" + apiServerPort;
    }

    /** PEM of the apiserver's self-signed serving certificate and its CA ({@code <cert-dir>/apiserver.crt}). */
    public byte[] caCertificate() {
        byte[] ca = caCertificate;
        if (ca == null) {
            throw new IllegalStateException("kube-apiserver has not written its certificate yet");
        }
        return ca.clone();
    }

    /**
     * Writes a kubeconfig (server URL, CA data, bearer token of the admin or the restricted user) to {@code file}
     * and returns it. Usable with {@code ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(reader))}, kubectl, or
     * a separately started process through {@code KUBECONFIG}.
     */
    public Path writeKubeconfig(Path file, boolean admin) {
        String user = admin ? ADMIN_USER : RESTRICTED_USER;
        String yaml = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: envtest
                  cluster:
                    server: %s
                    certificate-authority-data: %s
                users:
                - name: %s
                  user:
                    token: "%s"
                contexts:
                - name: envtest
                  context:
                    cluster: envtest
                    user: %s
                    namespace: default
                current-context: envtest
                """.formatted(baseUrl(), Base64.getEncoder().encodeToString(caCertificate()), user,
                admin ? adminToken : restrictedToken, user);
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, yaml);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file, e);
        }
        return file;
    }

    /**
     * Stops kube-apiserver (SIGTERM, then SIGKILL after 10 s) and waits for it to exit; etcd keeps running, so all
     * data survives. Requests then fail at the transport level ({@code ApiException.getCode() == 0}).
     */
    public synchronized void stopApiServer() {
        checkOpen();
        Process p = apiServer;
        apiServer = null;
        if (p != null) {
            terminate(p, Duration.ofSeconds(10));
        }
    }

    /** Starts kube-apiserver again on the same port with the same flags and waits until it is ready. */
    public synchronized void startApiServer() {
        checkOpen();
        if (apiServer != null && apiServer.isAlive()) {
            throw new IllegalStateException("kube-apiserver is already running (pid " + apiServer.pid() + ")");
        }
        long t0 = System.nanoTime();
        try {
            launchApiServer(deadline(), false);
        } catch (RuntimeException e) {
            throw new IllegalStateException("kube-apiserver did not restart: " + e.getMessage() + "\n"
                    + logReport(), e);
        }
        lastApiServerStartupTime = Duration.ofNanos(System.nanoTime() - t0);
    }

    /** Whether the kube-apiserver process is alive. */
    public boolean isApiServerRunning() {
        Process p = apiServer;
        return p != null && p.isAlive();
    }

    /** Time from {@link Builder#start()} until the apiserver was ready and the identities were set up. */
    public Duration startupTime() {
        return startupTime;
    }

    /** Time the last {@link #startApiServer()} took until ready (null before the first restart). */
    public Duration lastApiServerStartupTime() {
        return lastApiServerStartupTime;
    }

    /** The {@code --event-ttl} of this apiserver. */
    public Duration eventTtl() {
        return eventTtl;
    }

    /** The temporary directory holding data, certificates and logs (deleted by {@link #close()}). */
    public Path directory() {
        return tempDir;
    }

    /** Log file of kube-apiserver (stdout and stderr). */
    public Path apiServerLog() {
        return apiServerLog;
    }

    /** Log file of etcd (stdout and stderr). */
    public Path etcdLog() {
        return etcdLog;
    }

    /** {@code http://127.0.0.1:<port>} of etcd. */
    public String etcdUrl() {
        return "http://" + LOOPBACK + ":" + etcdPort;
    }

    /** Handles of the running processes (etcd first, then kube-apiserver if running), e.g. to check they die. */
    public List<ProcessHandle> processes() {
        List<ProcessHandle> handles = new ArrayList<>();
        Optional.ofNullable(etcd).map(Process::toHandle).ifPresent(handles::add);
        Optional.ofNullable(apiServer).map(Process::toHandle).ifPresent(handles::add);
        return handles;
    }

    /** Kills kube-apiserver and etcd (with any descendants), waits for them to exit, deletes the directory. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shutdownInProgress) {
            // the hook runs anyway
        }
        Process api = apiServer;
        Process db = etcd;
        apiServer = null;
        etcd = null;
        if (api != null) {
            terminate(api, Duration.ofSeconds(5));
        }
        if (db != null) {
            terminate(db, Duration.ofSeconds(5));
        }
        deleteRecursively(tempDir, null);
    }

    @Override
    public String toString() {
        return "ControlPlane[" + baseUrl() + ", etcd " + etcdUrl() + ", eventTtl " + eventTtl + ", dir " + tempDir
                + "]";
    }

    // ------------------------------------------------------------------------------------------------ startup

    private void startAll() {
        long t0 = System.nanoTime();
        long deadline = deadline();
        try {
            launchEtcd(deadline);
            launchApiServer(deadline, true);
            setUpRestrictedUser(deadline);
        } catch (RuntimeException | Error e) {
            String report = logReport();
            closeKeepingLogs();
            throw new IllegalStateException("envtest control plane did not start: " + e.getMessage() + "\n" + report,
                    e);
        }
        startupTime = Duration.ofNanos(System.nanoTime() - t0);
    }

    private long deadline() {
        return System.nanoTime() + startupTimeout.toNanos();
    }

    private void launchEtcd(long deadline) {
        String client = "http://" + LOOPBACK + ":" + etcdPort;
        String peer = "http://" + LOOPBACK + ":" + etcdPeerPort;
        etcd = launch("etcd", etcdLog, List.of(
                assets.resolve("etcd").toString(),
                "--name=envtest",
                "--data-dir=" + etcdDataDir,
                "--listen-client-urls=" + client,
                "--advertise-client-urls=" + client,
                "--listen-peer-urls=" + peer,
                "--initial-advertise-peer-urls=" + peer,
                "--initial-cluster=envtest=" + peer,
                "--initial-cluster-state=new",
                "--unsafe-no-fsync=true",
                "--log-level=warn"));
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create(client + "/health"))
                .timeout(Duration.ofSeconds(2)).build();
        String last = "no answer";
        while (true) {
            requireAlive(etcd, "etcd");
            try {
                HttpResponse<String> r = http.send(health, HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200 && r.body().contains("\"true\"")) {
                    return;
                }
                last = r.statusCode() + " " + r.body();
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for etcd", e);
            }
            pause(deadline, "etcd at " + client + " to be healthy (last: " + last + ")");
        }
    }

    private void launchApiServer(long deadline, boolean first) {
        List<String> cmd = new ArrayList<>(List.of(
                assets.resolve("kube-apiserver").toString(),
                "--bind-address=" + LOOPBACK,
                "--advertise-address=" + LOOPBACK,
                "--secure-port=" + apiServerPort,
                "--etcd-servers=http://" + LOOPBACK + ":" + etcdPort,
                "--cert-dir=" + certDir,
                "--authorization-mode=RBAC",
                "--token-auth-file=" + tokenFile,
                "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
                "--service-account-key-file=" + saPublicKey,
                "--service-account-signing-key-file=" + saPrivateKey,
                "--service-cluster-ip-range=10.0.0.0/24",
                "--disable-admission-plugins=ServiceAccount",
                "--allow-privileged=true",
                // the "kubernetes" Service cannot point at a loopback address; nothing here needs it
                "--endpoint-reconciler-type=none",
                "--event-ttl=" + goDuration(eventTtl)));
        cmd.addAll(extraApiServerArgs);
        if (!first) {
            appendMarker(apiServerLog, "---- restarted by ControlPlane.startApiServer() ----");
        }
        apiServer = launch("kube-apiserver", apiServerLog, cmd);

        Path crt = certDir.resolve("apiserver.crt");
        while (!Files.isRegularFile(crt) || sizeOf(crt) == 0) {
            requireAlive(apiServer, "kube-apiserver");
            pause(deadline, "kube-apiserver to write " + crt);
        }
        if (caCertificate == null) {
            caCertificate = readCertificate(crt, deadline);
        }

        ApiClient admin = adminClient();
        String last = "no answer";
        while (true) {
            requireAlive(apiServer, "kube-apiserver");
            Request readyz = new Request.Builder().url(baseUrl() + "/readyz")
                    .header("Authorization", "Bearer " + adminToken).build();
            try (Response r = admin.getHttpClient().newCall(readyz).execute()) {
                String body = r.body().string();
                if (r.code() == 200) {
                    break;
                }
                last = r.code() + " " + body.lines().filter(l -> l.contains("failed")).toList();
            } catch (IOException e) {
                last = e.toString();
            }
            pause(deadline, "kube-apiserver " + baseUrl() + "/readyz (last: " + last + ")");
        }
        CoreV1Api core = new CoreV1Api(admin);
        while (true) {
            requireAlive(apiServer, "kube-apiserver");
            try {
                core.readNamespace("default").execute();
                return;
            } catch (ApiException e) {
                last = "readNamespace(default): " + e.getCode() + " " + e.getMessage();
            }
            pause(deadline, "namespace 'default' to exist (last: " + last + ")");
        }
    }

    private void setUpRestrictedUser(long deadline) {
        ApiClient admin = adminClient();
        RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(admin);
        V1ClusterRole role = new V1ClusterRole()
                .metadata(new V1ObjectMeta().name(RESTRICTED_ROLE))
                .rules(List.of(
                        new V1PolicyRule().apiGroups(List.of("", "events.k8s.io")).resources(List.of("events"))
                                .verbs(List.of("get", "list", "watch")),
                        new V1PolicyRule().apiGroups(List.of("")).resources(List.of("nodes"))
                                .verbs(List.of("get", "list", "watch"))));
        V1ClusterRoleBinding binding = new V1ClusterRoleBinding()
                .metadata(new V1ObjectMeta().name(RESTRICTED_ROLE))
                .roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("ClusterRole")
                        .name(RESTRICTED_ROLE))
                .subjects(List.of(new RbacV1Subject().apiGroup("rbac.authorization.k8s.io").kind("User")
                        .name(RESTRICTED_USER)));
        try {
            rbac.createClusterRole(role).execute();
            rbac.createClusterRoleBinding(binding).execute();
        } catch (ApiException e) {
            throw new IllegalStateException("could not create the RBAC objects for '" + RESTRICTED_USER + "': "
                    + e.getCode() + " " + e.getResponseBody(), e);
        }
        // the RBAC authorizer reads through an informer: wait until it has seen the binding
        CoreV1Api restricted = new CoreV1Api(restrictedClient());
        String last;
        while (true) {
            try {
                restricted.listNamespacedEvent("default").limit(1).execute();
                return;
            } catch (ApiException e) {
                last = e.getCode() + " " + e.getResponseBody();
            }
            pause(deadline, "user '" + RESTRICTED_USER + "' to be allowed to list events (last: " + last + ")");
        }
    }

    // ------------------------------------------------------------------------------------------------ processes

    private static Process launch(String name, Path log, List<String> command) {
        try {
            return new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name + " (" + command.get(0) + ")", e);
        }
    }

    private static void requireAlive(Process p, String name) {
        if (p == null || !p.isAlive()) {
            throw new IllegalStateException(name + " exited"
                    + (p == null ? "" : " with code " + p.exitValue()) + " before it was ready");
        }
    }

    /** SIGTERM to the process and its descendants, SIGKILL after {@code grace}, and wait for all to exit. */
    private static void terminate(Process p, Duration grace) {
        List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
        all.add(p.toHandle());
        all.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + grace.toNanos();
        for (ProcessHandle h : all) {
            waitForExit(h, Math.max(0, deadline - System.nanoTime()));
        }
        for (ProcessHandle h : all) {
            if (h.isAlive()) {
                h.destroyForcibly();
                waitForExit(h, Duration.ofSeconds(10).toNanos());
            }
        }
        if (p.isAlive()) {
            throw new IllegalStateException("process " + p.pid() + " did not exit");
        }
    }

    private static void waitForExit(ProcessHandle h, long nanos) {
        try {
            h.onExit().get(nanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // caller escalates
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Shutdown hook: kill everything without waiting long. */
    private void killAll() {
        for (Process p : new Process[] {apiServer, etcd}) {
            if (p != null) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                waitForExit(p.toHandle(), Duration.ofSeconds(5).toNanos());
            }
        }
        deleteRecursively(tempDir, null);
    }

    /** After a failed start: kill the processes, delete everything but the log files. */
    private void closeKeepingLogs() {
        closed = true;
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException ignored) {
            // shutting down
        }
        for (Process p : new Process[] {apiServer, etcd}) {
            if (p != null) {
                terminate(p, Duration.ofSeconds(2));
            }
        }
        apiServer = null;
        etcd = null;
        deleteRecursively(tempDir, path -> path.getFileName().toString().endsWith(".log"));
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("control plane is closed");
        }
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private String logReport() {
        return "---- tail of " + apiServerLog + " ----\n" + tail(apiServerLog)
                + "---- tail of " + etcdLog + " ----\n" + tail(etcdLog)
                + "(temporary directory " + tempDir + ")";
    }

    private static String tail(Path log) {
        try {
            if (!Files.exists(log)) {
                return "(no log)\n";
            }
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            StringBuilder sb = new StringBuilder();
            lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())
                    .forEach(l -> sb.append(l).append('\n'));
            return sb.toString();
        } catch (IOException | UncheckedIOException e) {
            return "(unreadable: " + e + ")\n";
        }
    }

    private static void appendMarker(Path log, String line) {
        try {
            Files.writeString(log, line + "\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException ignored) {
            // only a marker
        }
    }

    /** Polls with a short pause; throws when the deadline is over. */
    private static void pause(long deadline, String waitingFor) {
        if (System.nanoTime() - deadline > 0) {
            throw new IllegalStateException("timed out waiting for " + waitingFor);
        }
        try {
            TimeUnit.MILLISECONDS.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + waitingFor, e);
        }
    }

    private static byte[] readCertificate(Path crt, long deadline) {
        // the file may be observed while it is being written: wait until it holds a complete PEM block
        while (true) {
            try {
                String pem = Files.readString(crt);
                if (pem.contains("-----END CERTIFICATE-----")) {
                    return pem.getBytes(StandardCharsets.US_ASCII);
                }
            } catch (IOException e) {
                // retry
            }
            pause(deadline, "a complete certificate in " + crt);
        }
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    private void writeServiceAccountKeys() throws IOException {
        KeyPair pair;
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
            gen.initialize(2048);
            pair = gen.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Files.writeString(saPrivateKey, pem("PRIVATE KEY", pair.getPrivate().getEncoded())); // PKCS#8
        Files.writeString(saPublicKey, pem("PUBLIC KEY", pair.getPublic().getEncoded())); // X.509 SPKI
    }

    private static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }

    private static String randomToken() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** Distinct free ports on 127.0.0.1 (held open together so they differ, then released). */
    private static int[] freeLoopbackPorts(int count) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK));
                s.setReuseAddress(true);
                sockets.add(s);
                ports[i] = s.getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket s : sockets) {
                s.close();
            }
        }
    }

    /** A Go {@code time.Duration} string. */
    static String goDuration(Duration d) {
        if (d.toNanos() % 1_000_000_000L == 0) {
            return d.getSeconds() + "s";
        }
        return d.toMillis() + "ms";
    }

    private static void deleteRecursively(Path root, java.util.function.Predicate<Path> keep) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    if (keep != null && keep.test(p)) {
                        return;
                    }
                    if (Files.isDirectory(p)) {
                        try (Stream<Path> children = Files.list(p)) {
                            if (children.findAny().isPresent()) {
                                return; // still holds kept files
                            }
                        }
                    }
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // best effort
        }
    }
}
