package io.github.kubeevents;

/**
 * What to tell a caller who passed a fabric8 object where the recorder needs a reference it can take by itself:
 * fabric8 objects need the adapter of {@code event-recorder-fabric8}. Core does not depend on fabric8, so a fabric8
 * object is recognised by the name of its {@code HasMetadata} interface, and the adapter's module by the name of its
 * class.
 *
 * <p>Stateless and thread-safe.
 */
final class Fabric8Hint {

	/** The interface every fabric8 resource implements. */
	static final String HAS_METADATA = "io.fabric8.kubernetes.api.model.HasMetadata";

	/** The class of {@code event-recorder-fabric8} that holds the adapter. */
	static final String FABRIC8_OBJECTS = "io.github.kubeevents.fabric8.Fabric8Objects";

	private Fabric8Hint() {
	}

	/**
	 * Whether a class is a fabric8 resource: it, a superclass or any interface they extend is {@link #HAS_METADATA}.
	 * @param type the class
	 * @return {@code true} for a fabric8 resource
	 */
	static boolean isFabric8(Class<?> type) {
		for (Class<?> current = type; current != null; current = current.getSuperclass()) {
			if (implementsHasMetadata(current)) {
				return true;
			}
		}
		return false;
	}

	private static boolean implementsHasMetadata(Class<?> type) {
		if (type.getName().equals(HAS_METADATA)) {
			return true;
		}
		for (Class<?> parent : type.getInterfaces()) {
			if (implementsHasMetadata(parent)) {
				return true;
			}
		}
		return false;
	}

	/** The fix for a fabric8 object, with this library's class loader asked once whether the module is there. */
	static String fix() {
		return Module.FIX;
	}

	/** Looks for the module once, on first use (a failed class lookup per drop would cost every drop). */
	private static final class Module {

		static final String FIX = fix(loader());

		private static ClassLoader loader() {
			ClassLoader loader = Fabric8Hint.class.getClassLoader();
			return (loader != null) ? loader : ClassLoader.getSystemClassLoader();
		}

	}

	/**
	 * The fix for a fabric8 object: the adapter, and the module first when {@code loader} cannot load it.
	 * @param loader where the application's classes are loaded from
	 * @return the fix, e.g. {@code record it with recorder.about(object,
	 * io.github.kubeevents.fabric8.Fabric8Objects.ADAPTER)}
	 */
	static String fix(ClassLoader loader) {
		String fix = "record it with recorder.about(object, " + FABRIC8_OBJECTS + ".ADAPTER)";
		return isPresent(loader) ? fix : "add the dependency io.github.kubeevents:event-recorder-fabric8 and " + fix;
	}

	private static boolean isPresent(ClassLoader loader) {
		try {
			Class.forName(FABRIC8_OBJECTS, false, loader);
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

}
