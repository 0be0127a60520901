package io.github.kubeevents.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.CoreV1EventList;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Smoke test of the envtest control plane itself: identities, admission, outage/restart, cleanup. */
@ExtendWith(ControlPlaneExtension.class)
class ControlPlaneIT {

    private static final Duration AWAIT = Duration.ofSeconds(60);

    @Test
    void adminCreatesNamespaceAndEvent(ControlPlane cp) throws ApiException {
        CoreV1Api api = new CoreV1Api(cp.adminClient());
        String ns = createNamespace(api);

        CoreV1Event created = api.createNamespacedEvent(ns, event(ns, "probe")).execute();

        assertThat(created.getMetadata().getName()).isEqualTo("probe");
        assertThat(created.getMetadata().getNamespace()).isEqualTo(ns);
        assertThat(created.getMetadata().getUid()).isNotBlank();
        assertThat(created.getReason()).isEqualTo("Probe");
        assertThat(created.getCount()).isEqualTo(1);
        assertThat(created.getInvolvedObject().getName()).isEqualTo("cm-1");
        CoreV1Event read = api.readNamespacedEvent("probe", ns).execute();
        assertThat(read.getMetadata().getUid()).isEqualTo(created.getMetadata().getUid());
        System.out.println("[envtest] shared control plane started in " + cp.startupTime().toMillis() + " ms");
    }

    @Test
    void restrictedUserCanListButNotCreateEvents(ControlPlane cp) throws ApiException {
        CoreV1Api admin = new CoreV1Api(cp.adminClient());
        String ns = createNamespace(admin);
        admin.createNamespacedEvent(ns, event(ns, "by-admin")).execute();
        ApiClient restrictedClient = cp.restrictedClient();
        CoreV1Api restricted = new CoreV1Api(restrictedClient);

        ApiException denied = catchThrowableOfType(ApiException.class,
                () -> restricted.createNamespacedEvent(ns, event(ns, "by-restricted")).execute());

        assertThat(denied.getCode()).isEqualTo(403);
        V1Status status = JSON.deserialize(denied.getResponseBody(), V1Status.class);
        assertThat(status.getReason()).isEqualTo("Forbidden");
        assertThat(status.getMessage()).isEqualTo("events is forbidden: User \"restricted\" cannot create resource "
                + "\"events\" in API group \"\" in the namespace \"" + ns + "\"");

        CoreV1EventList list = restricted.listNamespacedEvent(ns).execute();
        assertThat(list.getItems()).extracting(e -> e.getMetadata().getName()).containsExactly("by-admin");
        assertThat(restricted.listNode().execute().getItems()).isEmpty();
    }

    @Test
    void unknownTokenIsUnauthorized(ControlPlane cp) {
        CoreV1Api api = new CoreV1Api(cp.client("not-a-valid-token"));

        ApiException e = catchThrowableOfType(ApiException.class, () -> api.listNamespace().execute());

        assertThat(e.getCode()).isEqualTo(401);
    }

    @Test
    void eventInMissingNamespaceIsNotFound(ControlPlane cp) {
        CoreV1Api api = new CoreV1Api(cp.adminClient());
        String ns = "missing-" + UUID.randomUUID().toString().substring(0, 8);

        ApiException e = catchThrowableOfType(ApiException.class,
                () -> api.createNamespacedEvent(ns, event(ns, "orphan")).execute());

        assertThat(e.getCode()).isEqualTo(404);
        V1Status status = JSON.deserialize(e.getResponseBody(), V1Status.class);
        assertThat(status.getReason()).isEqualTo("NotFound");
        assertThat(status.getMessage()).isEqualTo("namespaces \"" + ns + "\" not found");
    }

    @Test
    void kubeconfigFilesWork(ControlPlane cp, @TempDir Path dir) throws IOException, ApiException {
        Path adminConfig = cp.writeKubeconfig(dir.resolve("admin.yaml"), true);
        Path restrictedConfig = cp.writeKubeconfig(dir.resolve("nested/restricted.yaml"), false);

        CoreV1Api admin = new CoreV1Api(fromKubeconfig(adminConfig));
        CoreV1Api restricted = new CoreV1Api(fromKubeconfig(restrictedConfig));

        assertThat(admin.readNamespace("default").execute().getMetadata().getName()).isEqualTo("default");
        String ns = createNamespace(admin);
        assertThat(restricted.listNamespacedEvent(ns).execute().getItems()).isEmpty();
        ApiException e = catchThrowableOfType(ApiException.class,
                () -> restricted.createNamespacedEvent(ns, event(ns, "x")).execute());
        assertThat(e.getCode()).isEqualTo(403);
    }

    @Test
    void separateInstanceHonoursEventTtlSurvivesApiServerRestartAndCleansUp() throws ApiException {
        ControlPlane cp = ControlPlane.builder().eventTtl(Duration.ofSeconds(5)).start();
        List<ProcessHandle> processes;
        Path directory = cp.directory();
        try {
            System.out.println("[envtest] separate control plane started in " + cp.startupTime().toMillis() + " ms");
            assertThat(cp.eventTtl()).isEqualTo(Duration.ofSeconds(5));
            processes = cp.processes();
            assertThat(processes).hasSize(2).allMatch(ProcessHandle::isAlive);
            CoreV1Api api = new CoreV1Api(cp.adminClient());
            String ns = createNamespace(api);

            // --event-ttl=5s: the event disappears on its own
            api.createNamespacedEvent(ns, event(ns, "short-lived")).execute();
            await().atMost(AWAIT).pollInterval(Duration.ofMillis(250)).until(() -> isGone(api, ns, "short-lived"));

            // stop: transport failure (code 0) on the same client
            String baseUrl = cp.baseUrl();
            cp.stopApiServer();
            assertThat(cp.isApiServerRunning()).isFalse();
            assertThat(processes.get(1).isAlive()).isFalse();
            assertThat(processes.get(0).isAlive()).isTrue();
            ApiException down = catchThrowableOfType(ApiException.class, () -> api.readNamespace(ns).execute());
            assertThat(down.getCode()).isZero();
            assertThat(down.getCause()).isInstanceOf(IOException.class);

            // restart: same URL, data kept in etcd, the old client works again
            cp.startApiServer();
            System.out.println("[envtest] apiserver restarted in " + cp.lastApiServerStartupTime().toMillis()
                    + " ms");
            assertThat(cp.baseUrl()).isEqualTo(baseUrl);
            assertThat(api.readNamespace(ns).execute().getMetadata().getName()).isEqualTo(ns);
            assertThat(api.createNamespacedEvent(ns, event(ns, "after-restart")).execute().getMetadata().getName())
                    .isEqualTo("after-restart");
            ApiException stillDenied = catchThrowableOfType(ApiException.class,
                    () -> new CoreV1Api(cp.restrictedClient()).createNamespacedEvent(ns, event(ns, "r")).execute());
            assertThat(stillDenied.getCode()).isEqualTo(403);
            processes = cp.processes();
            assertThat(processes).hasSize(2).allMatch(ProcessHandle::isAlive);
        } finally {
            cp.close();
        }

        assertThat(processes).allSatisfy(p -> {
            assertThat(p.isAlive()).as("pid %d alive", p.pid()).isFalse();
            assertThat(ProcessHandle.of(p.pid()).filter(ProcessHandle::isAlive)).isEmpty();
        });
        assertThat(Files.exists(directory)).as("%s exists", directory).isFalse();
        assertThat(cp.processes()).isEmpty();
    }

    /** Constructor and non-static {@code @BeforeAll} injection get the one shared instance. */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class PerClassLifecycle {

        private final ControlPlane fromConstructor;
        private ControlPlane fromBeforeAll;

        PerClassLifecycle(ControlPlane cp) {
            this.fromConstructor = cp;
        }

        @BeforeAll
        void beforeAll(ControlPlane cp) {
            this.fromBeforeAll = cp;
        }

        @Test
        void sameSharedInstanceEverywhere(ControlPlane cp) throws ApiException {
            assertThat(fromConstructor).isSameAs(cp).isSameAs(fromBeforeAll)
                    .isSameAs(ControlPlaneExtension.sharedControlPlane());
            assertThat(cp.eventTtl()).isEqualTo(ControlPlane.DEFAULT_EVENT_TTL);
            assertThat(new CoreV1Api(cp.adminClient()).readNamespace("default").execute().getMetadata().getName())
                    .isEqualTo("default");
        }
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static boolean isGone(CoreV1Api api, String ns, String name) throws ApiException {
        try {
            api.readNamespacedEvent(name, ns).execute();
            return false;
        } catch (ApiException e) {
            if (e.getCode() == 404) {
                return true;
            }
            throw e;
        }
    }

    private static ApiClient fromKubeconfig(Path file) throws IOException {
        try (Reader reader = Files.newBufferedReader(file)) {
            return ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(reader)).build();
        }
    }

    private static String createNamespace(CoreV1Api api) throws ApiException {
        String name = "it-" + UUID.randomUUID().toString().substring(0, 8);
        api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name))).execute();
        return name;
    }

    private static CoreV1Event event(String ns, String name) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        return new CoreV1Event()
                .metadata(new V1ObjectMeta().name(name).namespace(ns))
                .involvedObject(new V1ObjectReference().apiVersion("v1").kind("ConfigMap").namespace(ns).name("cm-1"))
                .reason("Probe")
                .message("envtest smoke test")
                .type("Normal")
                .count(1)
                .firstTimestamp(now)
                .lastTimestamp(now)
                .source(new V1EventSource().component("envtest-it"));
    }
}
