package dev.locksmith.api;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.asm.ClassReader;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.Opcodes;
import org.springframework.asm.Type;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every method, constructor and field of a library that the starter's compiled classes call exists on
 * the class path the tests run on: run on each supported Spring Boot line (the {@code boot-4.1} profile
 * of {@code .ci/run}), it finds a call to a member that one line lacks (as Lettuce 7 dropped
 * {@code BaseRedisAsyncCommands.isOpen()}) before a user's first lock call does. The members of an
 * optional library that is absent (Lettuce on the Jedis row) are not checked.
 */
class LinkageTests {

	/** The libraries checked, by the package their members are in, and a class each always has. */
	private static final List<List<String>> LIBRARIES = List.of(List.of("io/lettuce/", "io.lettuce.core.RedisClient"),
			List.of("redis/clients/", "redis.clients.jedis.Jedis"),
			List.of("org/springframework/", "org.springframework.core.SpringVersion"),
			List.of("io/micrometer/", "io.micrometer.observation.Observation"),
			List.of("reactor/", "reactor.core.publisher.Mono"));

	@Test
	void everyLibraryMemberTheStarterCallsExistsOnTheClassPath() throws IOException {
		List<String> missing = new ArrayList<>();
		int checked = 0;
		for (Map.Entry<String, Path> file : MainClasses.classFiles().entrySet()) {
			for (MemberReference reference : referencesIn(file.getValue())) {
				if (isChecked(reference.owner())) {
					checked++;
					if (!exists(reference)) {
						missing.add(reference + " (called from " + file.getKey() + ")");
					}
				}
			}
		}
		assertThat(checked).as("library members referenced").isGreaterThan(100);
		assertThat(new TreeSet<>(missing)).as("members the starter calls that this class path lacks").isEmpty();
	}

	private static boolean isChecked(String owner) {
		return !owner.startsWith("[") && LIBRARIES.stream()
			.anyMatch((library) -> owner.startsWith(library.get(0)) && ClassUtils.isPresent(library.get(1), null));
	}

	private static Set<MemberReference> referencesIn(Path classFile) throws IOException {
		Set<MemberReference> references = new HashSet<>();
		try (InputStream in = Files.newInputStream(classFile)) {
			new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {

				@Override
				public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
						String[] exceptions) {
					return new MethodVisitor(Opcodes.ASM9) {

						@Override
						public void visitMethodInsn(int opcode, String owner, String member, String memberDescriptor,
								boolean isInterface) {
							references.add(new MemberReference(owner, member, memberDescriptor));
						}

						@Override
						public void visitFieldInsn(int opcode, String owner, String member, String memberDescriptor) {
							references.add(new MemberReference(owner, member, memberDescriptor));
						}

					};
				}

			}, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
		}
		return references;
	}

	private static boolean exists(MemberReference reference) {
		Class<?> owner;
		try {
			owner = Class.forName(reference.owner().replace('/', '.'), false, LinkageTests.class.getClassLoader());
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
		if (reference.name().equals("<init>")) {
			return Arrays.stream(owner.getDeclaredConstructors())
				.map(Type::getConstructorDescriptor)
				.anyMatch(reference.descriptor()::equals);
		}
		for (Class<?> type : hierarchyOf(owner)) {
			for (Method method : type.getDeclaredMethods()) {
				if (method.getName().equals(reference.name())
						&& Type.getMethodDescriptor(method).equals(reference.descriptor())) {
					return true;
				}
			}
			for (Field field : type.getDeclaredFields()) {
				if (field.getName().equals(reference.name())
						&& Type.getDescriptor(field.getType()).equals(reference.descriptor())) {
					return true;
				}
			}
		}
		return false;
	}

	/** {@code type}, its superclasses and every interface they implement: where a call on it may resolve. */
	private static Set<Class<?>> hierarchyOf(Class<?> type) {
		Set<Class<?>> found = new HashSet<>();
		Deque<Class<?>> next = new ArrayDeque<>(List.of(type, Object.class));
		while (!next.isEmpty()) {
			Class<?> current = next.pop();
			if (found.add(current)) {
				if (current.getSuperclass() != null) {
					next.push(current.getSuperclass());
				}
				next.addAll(Arrays.asList(current.getInterfaces()));
			}
		}
		return found;
	}

	/** A method, constructor or field as a class file names it. */
	private record MemberReference(String owner, String name, String descriptor) {

		@Override
		public String toString() {
			return this.owner.replace('/', '.') + "." + this.name + this.descriptor;
		}

	}

}
