package dev.locksmith.benchmarks.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.Optional;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.DefaultCategoryDataset;

import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.lock.Library.Store;
import dev.locksmith.benchmarks.scenario.ContentionFigures;
import dev.locksmith.benchmarks.scenario.Curve;

/** Draws the overview chart: grouped bars of each library's speed relative to the textbook lock, at the targets' sizes. */
public final class BenchmarkChart {

	private static final int WIDTH = 1400;

	private static final int HEIGHT = 720;

	private BenchmarkChart() {
	}

	/** Draws the chart of {@code results} into the PNG {@code file}. */
	public static void write(Path file, BenchmarkResults results) throws IOException {
		JFreeChart chart = ChartFactory.createBarChart("Locksmith benchmarks: speed relative to the textbook lock",
				null, "× textbook (higher is better)", dataset(results), PlotOrientation.VERTICAL, true, false,
				false);
		chart.addSubtitle(new TextTitle("uncontended: textbook p50 / library p50;  others: library throughput / "
				+ "textbook throughput;  missing bar = failed", new Font(Font.SANS_SERIF, Font.PLAIN, 13)));
		chart.setBackgroundPaint(Color.WHITE);
		style(chart.getCategoryPlot());
		Files.createDirectories(file.toAbsolutePath().getParent());
		ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
	}

	private static DefaultCategoryDataset dataset(BenchmarkResults results) {
		DefaultCategoryDataset dataset = new DefaultCategoryDataset();
		String uncontended = "uncontended p50, 1 thread";
		String distinctKeys = Targets.DISTINCT_KEY_THREADS + " threads, distinct keys";
		String contention = Targets.CONTENDED_JVMS + " JVMs, one key";
		for (Library library : Library.on(Store.REDIS)) {
			add(dataset, library, uncontended, Ratios
				.toTextbook(results.uncontended(), library, (f) -> 1 / f.p50Micros()));
			add(dataset, library, distinctKeys, Ratios.toTextbookIfPresent(results.threads(), library,
					(Curve<Double> curve) -> curve.at(Targets.DISTINCT_KEY_THREADS)));
			add(dataset, library, contention, Ratios.toTextbookIfPresent(results.jvms(), library,
					(Curve<ContentionFigures> curve) -> curve.at(Targets.CONTENDED_JVMS)
						.map(ContentionFigures::sectionsPerSecond)));
		}
		return dataset;
	}

	private static void add(DefaultCategoryDataset dataset, Library library, String scenario, Optional<Double> ratio) {
		dataset.addValue(ratio.orElse(null), library.label(), scenario);
	}

	private static void style(CategoryPlot plot) {
		plot.setBackgroundPaint(Color.WHITE);
		plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
		plot.addRangeMarker(new ValueMarker(1.0, Color.DARK_GRAY, new BasicStroke(1.5f)));
		plot.getDomainAxis().setTickLabelFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
		BarRenderer renderer = (BarRenderer) plot.getRenderer();
		renderer.setBarPainter(new StandardBarPainter());
		renderer.setShadowVisible(false);
		renderer.setItemMargin(0.04);
		renderer.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", new DecimalFormat("0.00")));
		renderer.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
		renderer.setDefaultItemLabelsVisible(true);
		for (Library library : Library.on(Store.REDIS)) {
			renderer.setSeriesPaint(library.ordinal(), Palette.color(library));
		}
	}

}
