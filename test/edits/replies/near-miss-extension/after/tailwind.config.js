module.exports = {
  content: ['./src/**/*.{js,jsx}'],
  plugins: [],
};
