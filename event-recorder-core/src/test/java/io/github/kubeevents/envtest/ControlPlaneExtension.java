package io.github.kubeevents.envtest;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePreConstructCallback;
import org.junit.jupiter.api.extension.TestInstanceFactoryContext;

/**
 * JUnit Jupiter extension giving tests one shared, real {@link ControlPlane} (kube-apiserver + etcd), started
 * once per test JVM and stopped when the JUnit run ends.
 *
 * <p>Usage: register it with {@code @ExtendWith(ControlPlaneExtension.class)} and take a {@link ControlPlane}
 * parameter (constructor, {@code @BeforeAll}/{@code @BeforeEach}, or test method):
 * <pre>{@code
 * @ExtendWith(ControlPlaneExtension.class)
 * class MySinkIT {
 *     @Test
 *     void createsEvents(ControlPlane cp) throws Exception {
 *         ApiClient client = cp.adminClient();             // a new client per call
 *         new CoreV1Api(client).createNamespacedEvent("default", event).execute();
 *     }
 * }
 * }</pre>
 * Code that runs before JUnit would resolve a parameter (e.g. Spring's static {@code @DynamicPropertySource}
 * methods, with this extension registered before {@code SpringExtension}) can call {@link #sharedControlPlane()}.
 *
 * <p>The shared instance uses the defaults ({@code --event-ttl=1h}); tests must not stop it for good nor close it.
 * A test that calls {@link ControlPlane#stopApiServer()} must call {@link ControlPlane#startApiServer()} in a
 * {@code finally}. For other flags start a separate instance with {@link ControlPlane#builder()} and close it.
 *
 * <p>Where the binaries come from, and what happens when there are none (skip locally, fail under
 * {@code CI=true}), is described in {@link EnvtestAssets}. If the binaries exist but the control plane does not
 * start, every test using it fails with the reason (including the tail of the process logs).
 *
 * <p>Lifecycle: the instance is registered in the root {@link ExtensionContext.Store} as an
 * {@link AutoCloseable}, so JUnit closes it at the end of the run; {@link ControlPlane} also registers a JVM
 * shutdown hook that kills the processes if the JVM exits first.
 */
public final class ControlPlaneExtension
        implements BeforeAllCallback, BeforeEachCallback, TestInstancePreConstructCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(ControlPlaneExtension.class);

    private static final Object LOCK = new Object();
    private static Holder shared;

    /** The shared instance or why there is none. */
    private record Holder(ControlPlane controlPlane, String skipReason, RuntimeException failure) {
    }

    /** Closes the shared instance when the root extension context closes (end of the JUnit run). */
    private static final class Closer implements AutoCloseable {
        @Override
        public void close() {
            synchronized (LOCK) {
                if (shared != null && shared.controlPlane() != null) {
                    shared.controlPlane().close();
                }
                shared = null;
            }
        }
    }

    @Override
    public void preConstructTestInstance(TestInstanceFactoryContext factoryContext, ExtensionContext context) {
        controlPlane(context);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        controlPlane(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        controlPlane(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == ControlPlane.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return controlPlane(extensionContext);
    }

    /** The shared control plane, registered for closing at the end of the run of {@code context}. */
    public static ControlPlane controlPlane(ExtensionContext context) {
        context.getRoot().getStore(NAMESPACE).computeIfAbsent(Closer.class, key -> new Closer(), Closer.class);
        return sharedControlPlane();
    }

    /**
     * The shared control plane, started on first use. Aborts the calling test (or throws under {@code CI=true})
     * when there are no binaries, throws {@link IllegalStateException} when it could not start. Prefer the
     * extension: without it, nothing but the JVM shutdown hook stops the instance.
     */
    public static ControlPlane sharedControlPlane() {
        Holder h;
        synchronized (LOCK) {
            if (shared == null) {
                shared = start();
            }
            h = shared;
        }
        if (h.controlPlane() != null) {
            return h.controlPlane();
        }
        if (h.skipReason() != null) {
            return EnvtestAssets.unavailable(h.skipReason());
        }
        throw new IllegalStateException(h.failure().getMessage(), h.failure());
    }

    private static Holder start() {
        EnvtestAssets.Result assets = EnvtestAssets.locate();
        if (assets.directory().isEmpty()) {
            return new Holder(null, assets.reason(), null);
        }
        try {
            ControlPlane cp = ControlPlane.builder().assetsDirectory(assets.directory().get()).start();
            System.err.println("[envtest] " + cp + " ready in " + cp.startupTime().toMillis() + " ms");
            return new Holder(cp, null, null);
        } catch (RuntimeException e) {
            return new Holder(null, null, e);
        }
    }
}
