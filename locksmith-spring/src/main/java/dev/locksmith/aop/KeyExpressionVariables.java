package dev.locksmith.aop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;

/**
 * Checks that a key expression names only the variables its method provides: {@code #root},
 * {@code #this}, {@code #p0}/{@code #a0} up to the last parameter, and the parameters by name when
 * the class was compiled with {@code -parameters}. A misspelled name would otherwise evaluate to
 * {@code null} at the first call.
 */
final class KeyExpressionVariables {

	private static final Pattern BY_INDEX = Pattern.compile("[pa](\\d+)");

	private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	/**
	 * Checks {@code expression}, parsed from {@code source}, against the parameters of {@code method}.
	 * @throws LockDeclarationException naming the unknown variable and the ones that exist
	 */
	void check(String where, String source, Expression expression, Method method) {
		if (!(expression instanceof SpelExpression spel)) {
			return;
		}
		List<String> variables = new ArrayList<>();
		collect(spel.getAST(), variables);
		@Nullable String @Nullable [] names = this.parameterNames.getParameterNames(method);
		for (String variable : variables) {
			String problem = problem(variable, method, names);
			if (problem != null) {
				throw new LockDeclarationException(where, "key expression '" + source + "' names #" + variable
						+ ", " + problem, null);
			}
		}
	}

	private static void collect(SpelNode node, List<String> variables) {
		if (node instanceof VariableReference) {
			variables.add(node.toStringAST().substring(1));
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			collect(node.getChild(i), variables);
		}
	}

	private static @Nullable String problem(String variable, Method method, @Nullable String @Nullable [] names) {
		int count = method.getParameterCount();
		if (variable.equals("root") || variable.equals("this")) {
			return null;
		}
		Matcher byIndex = BY_INDEX.matcher(variable);
		if (byIndex.matches()) {
			return (Integer.parseInt(byIndex.group(1)) < count) ? null
					: "but the method has " + ((count == 0) ? "no parameters" : "parameters " + indexed(count));
		}
		if (count == 0) {
			return "but the method has no parameters";
		}
		if (names == null) {
			return "but the parameter names of " + method.getDeclaringClass().getSimpleName()
					+ " are unknown: it was compiled without -parameters. Use " + indexed(count)
					+ " (or #a0), or compile with -parameters";
		}
		if (Arrays.asList(names).contains(variable)) {
			return null;
		}
		String known = String.join(", ", Arrays.stream(names).map((name) -> "#" + name).toList());
		String similar = Arrays.stream(names)
			.filter(variable::equalsIgnoreCase)
			.findFirst()
			.map((name) -> "; did you mean #" + name + "?")
			.orElse("");
		return "which is not a parameter of the method; its parameters are " + known + " (or " + indexed(count) + ")"
				+ similar;
	}

	private static String indexed(int count) {
		return (count == 1) ? "#p0" : "#p0 to #p" + (count - 1);
	}

}
