package dev.locksmith.benchmarks.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import dev.locksmith.benchmarks.lock.Library;

/**
 * Draws curves as a PNG: one line per library, against a shared x axis, in one or more panels
 * stacked above each other (for example heap bytes above Redis bytes).
 */
final class CurveChart {

	private static final int WIDTH = 1100;

	private static final int PANEL_HEIGHT = 420;

	private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 18);

	private CurveChart() {
	}

	/**
	 * One panel: a y axis and the values of each library by x.
	 *
	 * @param yLabel the y axis label
	 * @param logY whether the y axis is logarithmic
	 * @param curves the values of each library, by x
	 */
	record Panel(String yLabel, boolean logY, Map<Library, SortedMap<Integer, Double>> curves) {

	}

	/** Writes a chart with {@code panels} above each other, sharing {@code xAxis}; the legend is the first panel's. */
	static void write(Path file, String title, ValueAxis xAxis, List<Panel> panels) throws IOException {
		CombinedDomainXYPlot plot = new CombinedDomainXYPlot(xAxis);
		plot.setGap(12);
		for (Panel panel : panels) {
			plot.add(panelPlot(panel));
		}
		plot.setFixedLegendItems(((XYPlot) plot.getSubplots().get(0)).getLegendItems());
		JFreeChart chart = new JFreeChart(title, TITLE, plot, true);
		chart.setBackgroundPaint(Color.WHITE);
		Files.createDirectories(file.toAbsolutePath().getParent());
		ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, 120 + PANEL_HEIGHT * panels.size());
	}

	/** An x axis of counts, linear. */
	static ValueAxis countAxis(String label) {
		NumberAxis axis = new NumberAxis(label);
		axis.setAutoRangeIncludesZero(false);
		axis.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
		axis.setNumberFormatOverride(new DecimalFormat("#,##0"));
		return axis;
	}

	/** An x axis of counts that doubles at each tick, which suits thread counts. */
	static ValueAxis doublingAxis(String label) {
		LogAxis axis = new LogAxis(label);
		axis.setBase(2);
		axis.setTickUnit(new NumberTickUnit(1));
		axis.setNumberFormatOverride(new DecimalFormat("0"));
		return axis;
	}

	/** An x axis whose values 0, 1, 2... are shown as {@code names}. */
	static ValueAxis namedAxis(String label, List<String> names) {
		return new SymbolAxis(label, names.toArray(String[]::new));
	}

	private static LogAxis logAxis(String label) {
		LogAxis axis = new LogAxis(label);
		axis.setTickUnit(new NumberTickUnit(1));
		axis.setNumberFormatOverride(new DecimalFormat("#,##0.#"));
		return axis;
	}

	private static XYPlot panelPlot(Panel panel) {
		XYSeriesCollection dataset = new XYSeriesCollection();
		XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
		panel.curves().forEach((library, values) -> {
			XYSeries series = new XYSeries(library.label());
			// a logarithmic axis cannot show 0, which a library that made no progress measures
			values.forEach((x, y) -> series.add(x, (panel.logY() && y <= 0) ? null : y));
			renderer.setSeriesPaint(dataset.getSeriesCount(), Palette.color(library));
			renderer.setSeriesStroke(dataset.getSeriesCount(), new BasicStroke(library.isLocksmith() ? 3f : 1.8f));
			dataset.addSeries(series);
		});
		ValueAxis yAxis = panel.logY() ? logAxis(panel.yLabel()) : new NumberAxis(panel.yLabel());
		if (yAxis instanceof NumberAxis linear) {
			linear.setNumberFormatOverride(new DecimalFormat("#,##0.#"));
		}
		XYPlot plot = new XYPlot(dataset, null, yAxis, renderer);
		plot.setBackgroundPaint(Color.WHITE);
		plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
		plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
		return plot;
	}

}
